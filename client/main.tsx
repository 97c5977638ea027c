import { StrictMode } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router-dom";
import type { NoticeView } from "../shared/api_types.ts";
import { AppRoutes } from "./app/router.tsx";
import { NOTICE_PATH } from "./app/layout/notice_banner.tsx";
import { embeddedAnswer, readEmbeddedPageData } from "./app/page_data.ts";
import { restoreStored, useStore } from "./app/store/store.ts";
import "./styles/app.css";

readEmbeddedPageData();
restoreStored();
// The notice the page was rendered with is the current one: kept, as loadNotice would.
const notice = embeddedAnswer(NOTICE_PATH) as NoticeView | undefined;
if (notice) useStore.getState().setNotice(notice);

const app = (
  <StrictMode>
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  </StrictMode>
);
const root = document.getElementById("root")!;
// Public pages arrive rendered by the server (server/ssr/): the same components take them over.
// The rest (admin, checkout, account) arrive empty and are rendered here.
if (root.firstElementChild) {
  // In a task of its own: loading this module is one long task on a slow phone already.
  setTimeout(() => hydrateRoot(root, app));
} else createRoot(root).render(app);

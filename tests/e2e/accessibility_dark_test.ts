import { accessibilityTest } from "./helpers/accessibility.ts";

accessibilityTest("dark");

/**
 * Which of React's two builds renders pages. React chooses when it is first loaded, by NODE_ENV,
 * and Deno leaves NODE_ENV unset, so without this the server rendered every page with React's
 * development build (its checks, warnings and component stacks: slower renders and a bigger first
 * load) while shoppers' browsers ran the production build of the same code.
 */

/** The build of the client a page server serves, and so the build of React it renders with. */
export type ReactBuild = "production" | "development";

/**
 * Sets NODE_ENV to `build` unless it is set already (an operator's own NODE_ENV wins). It must run
 * before React is first loaded: the rendering worker loads it as it starts, and reads the process's
 * environment, which every thread of the process shares. So does every page server in one process:
 * the first to start chooses (the shop serves one build; tests start many page servers in one
 * process). Where the environment cannot be read or changed (no permission, or a platform that
 * refuses changes while running), React makes its own choice: pages still render, with the
 * development build, and one line says so.
 */
export function chooseReactBuild(build: ReactBuild): void {
  try {
    if (Deno.env.get("NODE_ENV") === undefined) Deno.env.set("NODE_ENV", build);
  } catch (error) {
    console.warn(`NODE_ENV could not be set to ${build}; React chooses its own build`, error);
  }
}

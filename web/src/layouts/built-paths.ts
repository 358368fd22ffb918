/**
 * Whether a path opens a built page, as the route tree (router.tsx) answers it. The router registers its answer when
 * it loads; the layouts ask here, so they need not import the router that imports them.
 */
let check: (path: string) => boolean = () => true;

export function setBuiltPathCheck(answer: (path: string) => boolean): void {
  check = answer;
}

export function isBuiltPath(path: string): boolean {
  return check(path);
}

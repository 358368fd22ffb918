import type { ScormItem } from '@cc/contracts';
import type { Envelope } from '../../app/api';
import { api } from '../../app/api';

/** One item of the package's organisation, depth first, with the address it launches at (null for a heading). */
export interface ScormItemLaunch extends ScormItem {
  launch_url: string | null;
}

/** Launch data of the caller's own attempt (GET /attempts/{id}/package, server/src/packages). */
export interface ScormLaunch {
  uuid: string;
  version: '1.2' | '2004';
  title: string;
  launch_path: string;
  /**
   * /packages/{launch token}/{uuid}/{launch_path}: signed for this user and package, short-lived, served sandboxed
   * (issue 11 finding 1); absolute when the server has a package origin, else on the API's host.
   */
  launch_url: string;
  /** The origin package content runs in (PACKAGE_ORIGIN), or null: an opaque sandboxed origin. */
  package_origin: string | null;
  /** With a package origin: the launcher page that holds the SCO's API and frames the SCO (null without one). */
  player_url?: string | null;
  mastery_score: number | null;
  items: ScormItemLaunch[];
  /** As SCORM names the learner: id and "Last, First". */
  learner: { id: string; name: string };
}

/** An extracted .h5p of an H5P item used by the attempt's content (GET /attempts/{id}/h5ps/{h5pId}/package). */
export interface H5pLaunch {
  uuid: string;
  title: string;
  main_library: string;
  /** /packages/{launch token}/{uuid}: h5p.json, content/ and the libraries as the .h5p held them. */
  base_url: string;
  /** The page that runs h5p-standalone inside the sandbox (web/public/package-runtime/h5p.html). */
  player_url: string;
  /** The origin package content runs in (PACKAGE_ORIGIN), or null: an opaque sandboxed origin. */
  package_origin: string | null;
}

export const fetchScormLaunch = (attemptId: number) =>
  api.get<Envelope<ScormLaunch>>(`/attempts/${attemptId}/package`).then((r) => r.data.data);

export const fetchH5pLaunch = (attemptId: number, h5pId: number) =>
  api.get<Envelope<H5pLaunch>>(`/attempts/${attemptId}/h5ps/${h5pId}/package`).then((r) => r.data.data);

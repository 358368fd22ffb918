import type { App } from '../http/app-types';
import { approvalRoutes } from './approval-routes';
import { certificateRoutes } from './certificate-routes';
import { historicalRoutes } from './historical-routes';
import { observationRoutes } from './observation-routes';
import { reportRoutes } from './report-routes';
import { standardsRoutes } from './standards-routes';

/** The Care Certificate (issue 16; contracts care-certificate.ts). Each part registers its own calls. */
export async function careCertificateRoutes(app: App) {
  await standardsRoutes(app);
  await certificateRoutes(app);
  await observationRoutes(app);
  await approvalRoutes(app);
  await historicalRoutes(app);
  await reportRoutes(app);
}

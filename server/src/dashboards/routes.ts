import {
  BehindMessages,
  BehindPeopleQuery,
  BehindQuery,
  BehindRemindBody,
  BookingsDashboardQuery,
  DashboardPeopleQuery,
  DashboardQuery,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { ok, paginate } from '../http/envelope';
import { behindPeople, behindSummary, remindBehind } from './behind';
import { bookingsDashboard } from './bookings';
import { managementDashboard, managerDashboard, managerDashboardPeople } from './service';

/**
 * The dashboards (issue 13; ours, not in the spec — contracts dashboards.ts documents them): one call per dashboard,
 * and the paged people of one manager-dashboard list. HTTP only: scope, permissions and figures live in service.ts.
 */
export async function dashboardRoutes(app: App) {
  const tags = ['dashboards'];
  app.get(
    '/dashboards/manager',
    {
      schema: {
        tags,
        summary: 'Manager dashboard of one entity (105): out of date, expiring, pending, new starters, score',
        querystring: DashboardQuery,
      },
    },
    async (r) => ok(await managerDashboard(r.ctx, r.query)),
  );
  app.get(
    '/dashboards/manager/people',
    {
      schema: {
        tags,
        summary: 'Every person of one manager-dashboard list (105), paged',
        querystring: DashboardPeopleQuery,
      },
    },
    async (r) => {
      const { data, total } = await managerDashboardPeople(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.get(
    '/dashboards/management',
    {
      schema: {
        tags,
        summary:
          'Management dashboard of an entity and its descendants (79): ranked entities, worst courses, forecast',
        querystring: DashboardQuery,
      },
    },
    async (r) => ok(await managementDashboard(r.ctx, r.query)),
  );
  app.get(
    '/dashboards/bookings',
    {
      schema: {
        tags,
        summary:
          'Bookings on the manager dashboard (9, 11 or 109): sessions this week, places free, gaps to book',
        querystring: BookingsDashboardQuery,
      },
    },
    async (r) => ok(await bookingsDashboard(r.ctx, r.query)),
  );
  app.get(
    '/dashboards/manager/behind',
    {
      schema: {
        tags,
        summary:
          'Who is behind at one home (105): people per kind (Care Certificate, pathways, documents to read)',
        querystring: BehindQuery,
      },
    },
    async (r) => ok(await behindSummary(r.ctx, r.query)),
  );
  app.get(
    '/dashboards/manager/behind/people',
    {
      schema: {
        tags,
        summary:
          'The people behind at one home (105), with what each is behind on, longest overdue first, paged',
        querystring: BehindPeopleQuery,
      },
    },
    async (r) => {
      const { data, total } = await behindPeople(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post(
    '/dashboards/manager/behind/remind',
    {
      schema: {
        tags,
        summary:
          'Remind everyone behind at one home (105) of what they are behind on: once per person, thing and day',
        body: BehindRemindBody,
      },
    },
    async (r) => {
      const data = await remindBehind(r.ctx, r.body);
      return ok(data, BehindMessages.reminded(data.reminded));
    },
  );
}

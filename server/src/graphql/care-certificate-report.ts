import {
  CARE_CERTIFICATE_FILTERS,
  CareCertificateReportQuery,
  type CareCertificateReportRow,
  type CareCertificateStandardRow,
  type CertificateSummary,
  type LearnerCareCertificateWidget,
  type ManagerCareCertificateWidget,
  NMDS_STATUSES,
  STANDARD_STATUSES,
} from '@cc/contracts';
import { learnerWidget, managerWidget } from '../care-certificate/dashboard';
import { careCertificateReport, careCertificateStandardReport } from '../care-certificate/report';
import { actorOf } from '../http/context';
import { EntityRefRef } from './auth';
import { builder } from './builder';
import { CareCertificateSummaryObject } from './care-certificate-certificates';
import { nullless, parseInput } from './input';
import { pageArgs, pageOf, paginatorOf } from './paging';

/**
 * The Care Certificate report (87) and the dashboards' widgets over GraphQL (issue 16): queries
 * careCertificateReport(filter, first, page), careCertificateStandardReport(filter), learnerCareCertificateWidget and
 * managerCareCertificateWidget. Each resolver calls the REST route's service (care-certificate/report.ts,
 * dashboard.ts) with the filter parsed by the REST query schema, so answers, 401/403/404 and 422s are the same.
 */
const NmdsStatusEnum = builder.enumType('CareCertificateNmdsStatus', {
  description: "The national workforce data set's (ASC-WDS) Care Certificate value.",
  values: NMDS_STATUSES,
});
const StandardStatusEnum = builder.enumType('CareCertificateStandardStatus', { values: STANDARD_STATUSES });
const ReportFilterEnum = builder.enumType('CareCertificateFilter', { values: CARE_CERTIFICATE_FILTERS });
const ReportPeopleEnum = builder.enumType('CareCertificateReportPeople', {
  values: ['with_certificate', 'all'] as const,
});

type Person = CertificateSummary['user'];
const PersonRef = builder.objectRef<Person>('CareCertificateReportPerson').implement({
  description: 'A person with their primary organisation.',
  fields: (t) => ({
    id: t.exposeID('id'),
    uuid: t.exposeString('uuid'),
    name: t.exposeString('name'),
    entity: t.field({ type: EntityRefRef, resolve: (p) => p.entity }),
  }),
});

const StandardCellRef = builder
  .objectRef<{ number: number; status: (typeof STANDARD_STATUSES)[number] }>('CareCertificateStandardCell')
  .implement({
    description: 'A standard of the person’s certificate and what it shows.',
    fields: (t) => ({
      number: t.exposeInt('number'),
      status: t.field({ type: StandardStatusEnum, resolve: (s) => s.status }),
    }),
  });

const ReportRowRef = builder.objectRef<CareCertificateReportRow>('CareCertificateReportRow').implement({
  description: 'One person of the report (87).',
  fields: (t) => ({
    user: t.field({ type: PersonRef, resolve: (r) => r.user }),
    role: t.exposeString('role', { nullable: true }),
    start_date: t.exposeString('start_date', { nullable: true }),
    certificate: t.field({
      type: CareCertificateSummaryObject,
      nullable: true,
      resolve: (r) => (r.certificate ? { ...r.certificate, user: r.user } : null),
    }),
    nmds: t.field({ type: NmdsStatusEnum, resolve: (r) => r.nmds }),
    standards: t.field({
      type: [StandardCellRef],
      description: 'Each standard of the certificate’s version, by number.',
      resolve: (r) =>
        Object.entries(r.standards)
          .map(([number, status]) => ({ number: Number(number), status }))
          .sort((a, b) => a.number - b.number),
    }),
  }),
});
const ReportPage = paginatorOf(ReportRowRef, 'CareCertificateReport');

const StandardRowRef = builder.objectRef<CareCertificateStandardRow>('CareCertificateStandardRow').implement({
  description: 'How many people’s certificates show each status for one standard (view=standard).',
  fields: (t) => ({
    version_code: t.exposeString('version_code'),
    number: t.exposeInt('number'),
    title: t.exposeString('title'),
    outstanding: t.exposeInt('outstanding'),
    working_towards: t.exposeInt('working_towards'),
    awaiting_approval: t.exposeInt('awaiting_approval'),
    approved: t.exposeInt('approved'),
  }),
});

const ReportFilterInput = builder.inputType('CareCertificateReportFilter', {
  description: 'The filters of GET /api/reports/care-certificate (the four include flags default to true).',
  fields: (t) => ({
    entities: t.intList(),
    deep: t.boolean(),
    certificates: t.intList({ description: 'Version ids (empty: all).' }),
    includeApproved: t.boolean(),
    includeAwaitingApproval: t.boolean(),
    includeOutstanding: t.boolean(),
    includeWorkingTowards: t.boolean(),
    care_certificate_filter: t.field({ type: ReportFilterEnum }),
    people: t.field({ type: ReportPeopleEnum }),
    overdue_only: t.boolean(),
    search: t.string(),
    preset_id: t.int(),
  }),
});

const NextCriterionRef = builder
  .objectRef<LearnerCareCertificateWidget['next'][number]>('CareCertificateNextCriterion')
  .implement({
    fields: (t) => ({
      standard_number: t.exposeInt('standard_number'),
      standard_title: t.exposeString('standard_title'),
      code: t.exposeString('code'),
      text: t.exposeString('text'),
    }),
  });

const LearnerWidgetRef = builder
  .objectRef<LearnerCareCertificateWidget>('LearnerCareCertificateWidget')
  .implement({
    description: "The caller's own certificate and the next criteria to evidence.",
    fields: (t) => ({
      certificate: t.field({
        type: CareCertificateSummaryObject,
        nullable: true,
        resolve: (w) => w.certificate,
      }),
      next: t.field({ type: [NextCriterionRef], resolve: (w) => w.next }),
    }),
  });

const ManagerWidgetRef = builder
  .objectRef<ManagerCareCertificateWidget>('ManagerCareCertificateWidget')
  .implement({
    description: 'People in scope by stage of their certificate.',
    fields: (t) => ({
      working_towards: t.exposeInt('working_towards'),
      awaiting_approval: t.exposeInt('awaiting_approval'),
      overdue: t.exposeInt('overdue'),
      complete: t.exposeInt('complete'),
      overdue_people: t.field({ type: [CareCertificateSummaryObject], resolve: (w) => w.overdue_people }),
      awaiting_people: t.field({ type: [CareCertificateSummaryObject], resolve: (w) => w.awaiting_people }),
    }),
  });

const filterArgs = (filter: Record<string, unknown> | null | undefined) => nullless({ ...(filter ?? {}) });

builder.queryField('careCertificateReport', (t) =>
  t.field({
    type: ReportPage,
    description: 'GET /api/reports/care-certificate (87), view=person: a page of people.',
    args: { ...pageArgs(t.arg), filter: t.arg({ type: ReportFilterInput }) },
    resolve: async (_root, { filter, first, page }, ctx) => {
      actorOf(ctx);
      return pageOf(CareCertificateReportQuery, { first, page, ...filterArgs(filter) }, (q) =>
        careCertificateReport(ctx, q),
      );
    },
  }),
);

builder.queryField('careCertificateStandardReport', (t) =>
  t.field({
    type: [StandardRowRef],
    description: 'GET /api/reports/care-certificate?view=standard (87): counts per standard.',
    args: { filter: t.arg({ type: ReportFilterInput }) },
    resolve: async (_root, { filter }, ctx) => {
      actorOf(ctx);
      const q = parseInput(CareCertificateReportQuery, { ...filterArgs(filter), view: 'standard' });
      return careCertificateStandardReport(ctx, q);
    },
  }),
);

builder.queryField('learnerCareCertificateWidget', (t) =>
  t.field({
    type: LearnerWidgetRef,
    description: 'GET /api/dashboard/care-certificate (any signed-in user).',
    resolve: async (_root, _args, ctx) => learnerWidget(ctx),
  }),
);

builder.queryField('managerCareCertificateWidget', (t) =>
  t.field({
    type: ManagerWidgetRef,
    description: 'GET /api/dashboard/care-certificate/team (any certificate view permission).',
    resolve: async (_root, _args, ctx) => managerWidget(ctx),
  }),
);

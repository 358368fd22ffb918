import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder';
// Each module adds its types and fields to the builder (spec 2 §7 GraphQL: me, entities, users, roles, ...).
import './auth';
import './entities';
import './users';
import './roles';
import './whitelabel';
import './learning';
import './preferences';
import './help';
import './bookings-sessions';
import './bookings-delegates';
import './bookings-settings';
import './bookings-gaps';
import './manager-checks';
import './care-certificate-standards';
import './care-certificate-certificates';
import './care-certificate-observations';
import './care-certificate-report';
import './pathways';
import './documents';
import './designer';
import './tokens';
import './webhooks';
import './importer';
import './tasks';
import './matrix';
import './signup-links';
import './starter-matrix';
import './offline';
import './push';
import './audit';
import './data-protection';
import './asc-wds';

/** Built once per process: the schema is static. */
export const schema = builder.toSchema();

/** The schema as SDL, sorted, for review and for clients' code generation. */
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));

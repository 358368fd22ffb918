// First: zod's settings for browsers (zod-setup.ts).
import './zod-setup';

export * from './activity';
export * from './auth';
export * from './bookings';
export * from './common';
export * from './compliance';
export * from './constants';
export * from './content';
export * from './dashboards';
export * from './dates';
export * from './entities';
export * from './events';
export * from './help';
export * from './learning';
export * from './matrix';
export * from './messages';
export * from './messaging';
export * from './notifications';
export * from './permissions';
export * from './permissions-api';
export * from './presets';
export * from './reports';
export * from './results';
export * from './roles';
export * from './tags';
export * from './users';
export * from './whitelabel';

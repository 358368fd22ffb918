import {
  CreatePresetBody,
  CreateScheduleBody,
  PresetIdParams,
  PresetListQuery,
  PresetMessages,
  PresetOptionParams,
  PresetOptionsQuery,
  ScheduleListQuery,
  UpdatePresetBody,
  UpdateScheduleBody,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  runScheduleNow,
  updateSchedule,
} from './schedules-service';
import { createPreset, deletePreset, getPreset, listPresets, presetOptions, updatePreset } from './service';

/** spec 2 §7 "Reports": GET, POST /reports/presets (acting_as_id); GET, PATCH, DELETE /reports/presets/{id}; schedules (117). */
export async function presetRoutes(app: App) {
  const presets = { tags: ['reports'] };
  app.get(
    '/reports/presets',
    { config: { readCache: true }, schema: { ...presets, querystring: PresetListQuery } },
    async (r) => {
      const { data, total } = await listPresets(r.ctx, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
  app.post('/reports/presets', { schema: { ...presets, body: CreatePresetBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createPreset(r.ctx, r.body), PresetMessages.created)),
  );
  app.get(
    '/reports/presets/options/:kind',
    { schema: { ...presets, params: PresetOptionParams, querystring: PresetOptionsQuery } },
    async (r) => ok(await presetOptions(r.ctx, r.params.kind, r.query)),
  );
  app.get('/reports/presets/:id', { schema: { ...presets, params: PresetIdParams } }, async (r) =>
    ok(await getPreset(r.ctx, r.params.id)),
  );
  app.patch(
    '/reports/presets/:id',
    { schema: { ...presets, params: PresetIdParams, body: UpdatePresetBody } },
    async (r) => ok(await updatePreset(r.ctx, r.params.id, r.body), PresetMessages.updated),
  );
  app.delete('/reports/presets/:id', { schema: { ...presets, params: PresetIdParams } }, async (r) => {
    await deletePreset(r.ctx, r.params.id);
    return done(PresetMessages.deleted);
  });

  const schedules = { tags: ['reports'] };
  app.get('/reports/schedules', { schema: { ...schedules, querystring: ScheduleListQuery } }, async (r) => {
    const { data, total } = await listSchedules(r.ctx, r.query);
    return paginate(data, total, r.query, r.url);
  });
  app.post('/reports/schedules', { schema: { ...schedules, body: CreateScheduleBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createSchedule(r.ctx, r.body), PresetMessages.scheduleCreated)),
  );
  app.get('/reports/schedules/:id', { schema: { ...schedules, params: PresetIdParams } }, async (r) =>
    ok(await getSchedule(r.ctx, r.params.id)),
  );
  app.patch(
    '/reports/schedules/:id',
    { schema: { ...schedules, params: PresetIdParams, body: UpdateScheduleBody } },
    async (r) => ok(await updateSchedule(r.ctx, r.params.id, r.body), PresetMessages.scheduleUpdated),
  );
  app.delete('/reports/schedules/:id', { schema: { ...schedules, params: PresetIdParams } }, async (r) => {
    await deleteSchedule(r.ctx, r.params.id);
    return done(PresetMessages.scheduleDeleted);
  });
  app.post(
    '/reports/schedules/:id/run',
    { schema: { ...schedules, params: PresetIdParams } },
    async (r, reply) =>
      reply.status(202).send(ok(await runScheduleNow(r.ctx, r.params.id), PresetMessages.scheduleQueued)),
  );
}

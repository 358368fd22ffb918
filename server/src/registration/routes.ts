import { Messages, RegisterBody, RegisterParams } from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { register } from './service';

/** Sign-up routes (a web-session route like /login: mounted at / and /api, app.ts). */
export async function registrationRoutes(app: App) {
  // spec 1 §2 /register/{plan}: a new organisation and its Administrator once the address is confirmed (202: the
  // same answer for a taken address, issue 11 §8).
  app.post(
    '/register/:plan',
    {
      config: { csrf: 'session-or-json', auth: false },
      schema: {
        tags: ['auth'],
        params: RegisterParams,
        body: RegisterBody,
        response: { 202: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
      await register(request.ctx, request.params.plan, request.body);
      return reply.status(202).send({ message: Messages.registered });
    },
  );
}

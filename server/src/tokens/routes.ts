import { CreateTokenBody, IdParams, TokenMessages as M, TokenListQuery } from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import { createToken, listTokens, revokeToken, tokenOptions } from './service';

/** Personal access tokens (issue 18; contracts tokens.ts): HTTP only, the rules live in service.ts. */
export async function tokenRoutes(app: App): Promise<void> {
  const tags = ['personal access tokens'];
  app.get('/personal-access-tokens', { schema: { tags, querystring: TokenListQuery } }, async (r) => {
    const { data, total, page } = await listTokens(r.ctx, r.query);
    return paginate(data, total, page, r.url);
  });
  app.get('/personal-access-tokens/options', { schema: { tags } }, async (r) =>
    ok(await tokenOptions(r.ctx)),
  );
  app.post('/personal-access-tokens', { schema: { tags, body: CreateTokenBody } }, async (r, reply) =>
    reply.status(201).send(ok(await createToken(r.ctx, r.body), M.created)),
  );
  app.delete('/personal-access-tokens/:id', { schema: { tags, params: IdParams } }, async (r) => {
    const { view, already } = await revokeToken(r.ctx, r.params.id);
    return done(already ? M.alreadyRevoked : M.revoked, view);
  });
}

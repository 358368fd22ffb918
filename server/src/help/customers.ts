import { cellCountsAsCompliant, type HelpCustomer, HelpMessages } from '@cc/contracts';
import { accountActivity } from '../activity/service';
import { listUserComplianceCourses } from '../compliance/user-courses';
import { actorOf, type Ctx } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import { getUser } from '../users/service';
import { profileUrl } from './contact';
import { userIdByEmail } from './queries';

/**
 * GET /help/customers?email= (help-desk layout, /helpscout-app): what a support agent needs beside a conversation.
 * Support agents are super admins (the catalogue has no support permission); anyone else gets 403. The answer is
 * composed from the same services as the user page, account activity and compliance courses, asked as the super
 * admin over the whole platform: an agent's own acting-as choice must not hide a customer.
 */
const RECENT_SIGN_INS = 10;
const PAGE = 100;

export async function findCustomer(ctx: Ctx, email: string): Promise<HelpCustomer> {
  const actor = actorOf(ctx);
  if (!actor.superAdmin) throw forbidden();
  const wide: Ctx = { ...ctx, actor: { ...actor, actingAs: null }, memo: new Map() };
  const id = await userIdByEmail(ctx.db, email);
  if (id === undefined) throw notFound(HelpMessages.customerNotFound);
  const ref = String(id);
  const user = await getUser(wide, ref);
  const activity = await accountActivity(wide, ref, { page: 1, per_page: RECENT_SIGN_INS });
  const byStatus: Record<string, number> = {};
  let required = 0;
  let compliant = 0;
  for (let page = 1; ; page++) {
    const { data, total } = await listUserComplianceCourses(wide, ref, { page, per_page: PAGE, type: 'all' });
    for (const row of data) {
      required += 1;
      byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
      if (cellCountsAsCompliant(row.status)) compliant += 1;
    }
    if (page * PAGE >= total || data.length === 0) break;
  }
  return {
    id: user.id,
    uuid: user.uuid,
    name: user.name,
    email: user.email ?? email,
    profile_url: profileUrl(ctx.config.appUrl, user.uuid),
    organisation: {
      id: user.primary_entity.id,
      slug: user.primary_entity.slug,
      name: user.primary_entity.name,
    },
    a_entity: user.a_entity,
    role: user.role,
    type: user.type,
    email_verified: user.email_verified,
    last_login_at: user.last_login_at,
    created_at: user.created_at,
    recent_sign_ins: activity.data.map((e) => ({
      event: e.event,
      created_at: e.created_at,
      ip: e.ip,
      user_agent: e.user_agent,
    })),
    compliance: {
      required,
      compliant,
      score: required ? Math.round((compliant / required) * 100) : null,
      by_status: byStatus,
    },
  };
}

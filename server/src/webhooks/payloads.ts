/**
 * The `data` of webhook events built from a capability's own rows (contracts WEBHOOK_EVENT_DOCS has an example of
 * each), so each emit in another capability's service stays one line. Ids, uuids and plain facts only: never
 * secrets, password hashes or tokens.
 */

export function userCreatedData(
  user: { id: number; uuid: string },
  fields: { entityId: number; roleId?: number | null; typeId?: number | null; startDate?: string | null },
  at: Date,
) {
  return {
    user_id: user.id,
    user_uuid: user.uuid,
    entity_id: fields.entityId,
    role_id: fields.roleId ?? null,
    type_id: fields.typeId ?? null,
    start_date: fields.startDate ?? null,
    created_at: at.toISOString(),
  };
}

/** Which fields changed (names only: the values may be personal, and the receiver can fetch them). */
export function userUpdatedData(
  user: { id: number; uuid: string; primary_entity_id: number },
  values: object,
) {
  const changed = Object.keys(values).filter(
    (k) => !['updated_at', 'password_hash', 'password_changed_at'].includes(k),
  );
  return { user_id: user.id, user_uuid: user.uuid, entity_id: user.primary_entity_id, changed };
}

/**
 * booking.changed: `change` is what happened to the place (requested, booked, waitlisted, offered, accepted, declined,
 * removed, restored, approved, marked = attendance recorded, session_cancelled), `status` the place's state after it
 * (e.g. accepted, attended, absent, cancelled).
 */
export function bookingChangedData(
  change: string,
  d: { id: number; user_id: number; session_id: number; course_id: number; status: string },
  session: { uuid: string },
) {
  return {
    user_id: d.user_id,
    delegate_id: d.id,
    session_id: d.session_id,
    session_uuid: session.uuid,
    course_id: d.course_id,
    change,
    status: d.status,
  };
}

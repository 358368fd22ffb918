import { CreateUserBody, UpdateUserBody, type UserDetail } from '@cc/contracts';
import { type FieldErrors, zodFieldErrors } from '../entities/shared';

/**
 * The user form as its inputs hold it (ids as strings, '' = none) and its mapping to the contract's bodies
 * (spec 1 §7 POST /users, PATCH /users/{id}), validated with the same zod schemas the server uses.
 */
export interface UserFormState {
  name: string;
  email: string;
  primary_entity_id: string;
  role_id: string;
  type_id: string;
  is_trainer: boolean;
  start_date: string;
  /** Create only: e-mail a set-your-password link (default) or set a password now. */
  send_welcome_email: boolean;
  password: string;
}

export function emptyUserForm(entityId: number | null): UserFormState {
  return {
    name: '',
    email: '',
    primary_entity_id: entityId ? String(entityId) : '',
    role_id: '',
    type_id: '',
    is_trainer: false,
    start_date: '',
    send_welcome_email: true,
    password: '',
  };
}

export function userToForm(user: UserDetail): UserFormState {
  return {
    name: user.name,
    email: user.email ?? '',
    primary_entity_id: String(user.primary_entity.id),
    role_id: user.role ? String(user.role.id) : '',
    type_id: user.type ? String(user.type.id) : '',
    is_trainer: user.is_trainer,
    start_date: user.start_date ?? '',
    send_welcome_email: false,
    password: '',
  };
}

const idOrNull = (v: string) => (v ? Number(v) : null);

export type UserBodyResult<T> = { ok: true; body: T } | { ok: false; errors: FieldErrors };

export function toCreateUserBody(form: UserFormState): UserBodyResult<CreateUserBody> {
  const raw: Record<string, unknown> = {
    name: form.name,
    email: form.email,
    role_id: idOrNull(form.role_id),
    type_id: idOrNull(form.type_id),
    is_trainer: form.is_trainer,
    start_date: form.start_date || null,
    send_welcome_email: form.send_welcome_email,
  };
  if (form.primary_entity_id) raw.primary_entity_id = Number(form.primary_entity_id);
  if (!form.send_welcome_email) {
    if (!form.password)
      return { ok: false, errors: { password: ['Set a password, or send a welcome e-mail instead.'] } };
    raw.password = form.password;
  }
  const parsed = CreateUserBody.safeParse(raw);
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, errors: zodFieldErrors(parsed.error) };
}

/**
 * Only what changed is sent (the server checks a permission per changed field, so an unchanged role is not a
 * "role change" the caller needs permission 4 for). The e-mail is left out when the caller cannot see it.
 */
export function toUpdateUserBody(
  form: UserFormState,
  original: UserFormState,
): UserBodyResult<UpdateUserBody> {
  const raw: Record<string, unknown> = {};
  if (form.name !== original.name) raw.name = form.name;
  if (form.email !== original.email && form.email !== '') raw.email = form.email;
  if (form.primary_entity_id !== original.primary_entity_id)
    raw.primary_entity_id = Number(form.primary_entity_id);
  if (form.role_id !== original.role_id) raw.role_id = idOrNull(form.role_id);
  if (form.type_id !== original.type_id) raw.type_id = idOrNull(form.type_id);
  if (form.is_trainer !== original.is_trainer) raw.is_trainer = form.is_trainer;
  if (form.start_date !== original.start_date) raw.start_date = form.start_date || null;
  const parsed = UpdateUserBody.safeParse(raw);
  return parsed.success
    ? { ok: true, body: parsed.data }
    : { ok: false, errors: zodFieldErrors(parsed.error) };
}

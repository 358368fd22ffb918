import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { errorEnvelope } from '../entities/shared';
import { notifyError, notifySuccess } from './notifications';

export interface ChangeOptions {
  /** The caller shows the failure itself (a form by its fields): no notice. */
  quietErrors?: boolean;
}

/**
 * Runs a change the way every capability's pages do: shows the server's message (else `success`), refreshes the
 * queries under `refresh`; a failure shows the server's message unless `quietErrors`, and is rethrown, so a dialog
 * stays open with what was typed.
 */
export async function runChange<T = unknown>(
  queryClient: QueryClient,
  refresh: readonly QueryKey[],
  request: () => Promise<{ data?: { message?: string; data?: T } | null }>,
  success: string,
  { quietErrors = false }: ChangeOptions = {},
): Promise<T | undefined> {
  try {
    const res = await request();
    notifySuccess(res.data?.message ?? success);
    await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    return res.data?.data;
  } catch (error) {
    if (!quietErrors)
      notifyError(errorEnvelope(error, 'That did not work. Please try again.'), 'That did not work.');
    throw error;
  }
}

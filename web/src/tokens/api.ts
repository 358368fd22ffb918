import type { CreatedTokenView, CreateTokenBody, Paged, TokenOptionsView, TokenView } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** The calls of /personal-access-tokens (contracts tokens.ts) through THE api client; query keys under ['tokens']. */
export interface TokenFilters {
  page: number;
  search?: string;
  scope: 'own' | 'organisation';
}

export const tokenKeys = {
  all: ['tokens'] as const,
  list: (f: TokenFilters) => ['tokens', 'list', f] as const,
  options: ['tokens', 'options'] as const,
};

export function useTokens(f: TokenFilters) {
  return useQuery({
    queryKey: tokenKeys.list(f),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<TokenView>>('/personal-access-tokens', {
          params: { page: f.page, search: f.search, scope: f.scope },
        })
      ).data,
  });
}

export function useTokenOptions(enabled: boolean) {
  return useQuery({
    queryKey: tokenKeys.options,
    enabled,
    queryFn: async () =>
      (await api.get<Envelope<TokenOptionsView>>('/personal-access-tokens/options')).data.data,
  });
}

export const createToken = (body: CreateTokenBody) =>
  api.post<Envelope<CreatedTokenView>>('/personal-access-tokens', body);
export const revokeToken = (id: number) =>
  api.delete<{ message?: string; data?: TokenView }>(`/personal-access-tokens/${id}`);

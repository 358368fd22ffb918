import type {
  CreatedSignupLink,
  CreateSignupLinkBody,
  MySignup,
  Paged,
  PublicSignupLink,
  SignUpBody,
  SignupLinkView,
  SignupView,
} from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope, fetchCsrfCookie } from '../app/api';

/** The calls of the sign-up link pages (contracts signup-links.ts); every key starts with ['signup-links']. */
export const signupKeys = {
  all: ['signup-links'] as const,
  links: (page: number, show: string) => ['signup-links', 'links', page, show] as const,
  signups: (page: number) => ['signup-links', 'signups', page] as const,
  mine: ['signup-links', 'mine'] as const,
};

export function useSignupLinks(page: number, show: 'active' | 'all') {
  return useQuery({
    queryKey: signupKeys.links(page, show),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<SignupLinkView>>('/signup-links', { params: { page, show, per_page: 10 } })).data,
  });
}

export function usePendingSignups(page: number) {
  return useQuery({
    queryKey: signupKeys.signups(page),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<SignupView>>('/signup-links/signups', {
          params: { page, status: 'pending', per_page: 10 },
        })
      ).data,
  });
}

export async function createLink(body: CreateSignupLinkBody) {
  return (await api.post<Envelope<CreatedSignupLink>>('/signup-links', body)).data;
}
export async function revokeLink(id: number) {
  return (await api.post<Envelope<SignupLinkView>>(`/signup-links/${id}/revoke`)).data;
}
export async function decide(id: number, decision: 'approve' | 'reject') {
  return (await api.post<Envelope<SignupView>>(`/signup-links/signups/${id}/${decision}`)).data;
}

/** The banner's status: null for anyone not signed up through a link. Background: never logs out or redirects. */
export function useMySignup(enabled: boolean) {
  return useQuery({
    queryKey: signupKeys.mine,
    enabled,
    queryFn: async () =>
      (await api.get<Envelope<MySignup>>('/signup-links/mine', { skipAuthHandling: true, actingAs: false }))
        .data.data,
  });
}

// The public page (no login).
export async function openLink(token: string) {
  return (
    await api.post<Envelope<PublicSignupLink>>(
      '/signup-links/open',
      { token },
      { skipAuthHandling: true, actingAs: false },
    )
  ).data.data;
}
/** 202 "check your e-mail", whether or not the address has an account (issue 29 §5). */
export async function signUp(body: SignUpBody) {
  await fetchCsrfCookie();
  return api.post<{ message: string }>('/signup-links/sign-up', body, {
    skipAuthHandling: true,
    actingAs: false,
  });
}

/** The link mailed to a new address: makes the account and signs its owner in. */
export async function confirmSignup(token: string) {
  await fetchCsrfCookie();
  return (
    await api.post<{ data: { user: import('@cc/contracts').AuthUser }; message: string }>(
      '/signup-links/confirm',
      { token },
      { skipAuthHandling: true, actingAs: false },
    )
  ).data;
}

import type { LearnerCareCertificateWidget, ManagerCareCertificateWidget } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../../app/api';

/** GET /dashboard/care-certificate: the signed-in user's certificate and next criteria. */
export function useLearnerCareCertificate(enabled = true) {
  return useQuery({
    queryKey: ['care-certificate', 'dashboard', 'mine'],
    queryFn: async () =>
      (
        await api.get<Envelope<LearnerCareCertificateWidget>>('/dashboard/care-certificate', {
          skipAuthHandling: true,
        })
      ).data.data,
    enabled,
    retry: false,
  });
}

/** GET /dashboard/care-certificate/team (any view permission): people in scope by stage. */
export function useTeamCareCertificate(enabled: boolean) {
  return useQuery({
    queryKey: ['care-certificate', 'dashboard', 'team'],
    queryFn: async () =>
      (
        await api.get<Envelope<ManagerCareCertificateWidget>>('/dashboard/care-certificate/team', {
          skipAuthHandling: true,
        })
      ).data.data,
    enabled,
    retry: false,
  });
}

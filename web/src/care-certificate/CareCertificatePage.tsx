import { CARE_CERTIFICATE_VIEW_PERMS, CareCertificatePerm } from '@cc/contracts';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { PageHeader } from '../ui';
import { AssignDialog } from './AssignDialog';
import { CertificatesList } from './CertificatesList';
import { MyCertificates } from './MyCertificates';

/**
 * `/care-certificate` (issue 16): a learner's own certificate(s) with progress by standard and what to do next;
 * for managers and assessors (86, 88, 89, 90, 92, 93) the certificates of the people in their scope, with Assign
 * (86). Both show when the user is both. The title is the white-label `certificateGroupMenuName`.
 */
export default function CareCertificatePage() {
  const wl = useWhitelabel();
  const manages = usePermission([...CARE_CERTIFICATE_VIEW_PERMS], 'any');
  const canAssign = usePermission([CareCertificatePerm.assign]);
  const [assigning, setAssigning] = useState(false);
  return (
    <div className="space-y-6">
      <PageHeader
        title={wl.certificateGroupMenuName}
        description={
          manages
            ? 'Progress of the people you support, standard by standard: evidence, observations and approvals.'
            : 'Your progress, standard by standard, and what to do next.'
        }
      />
      {manages ? <CertificatesList canAssign={canAssign} onAssign={() => setAssigning(true)} /> : null}
      <MyCertificates alone={!manages} />
      {canAssign ? <AssignDialog open={assigning} onClose={() => setAssigning(false)} /> : null}
    </div>
  );
}

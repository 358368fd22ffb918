import {
  CertificateBrandingBody,
  ContentPerm,
  LearningMessages,
  LearningPerm,
  Messages,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useParams } from 'react-router';
import { usePermissionChecker } from '../app/auth';
import { apiOrigin } from '../app/env';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntity } from '../entities/queries';
import {
  errorEnvelope,
  type FieldErrors,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  useNotFoundRedirect,
  zodFieldErrors,
} from '../entities/shared';
import { Button, Card, EmptyState, PageHeader, TextField } from '../ui';
import { organisationsWord } from '../whitelabel/words';
import { saveCertificateBranding, uploadLogo, useCertificateBranding } from './api';
import { CertificatePreview, isHexColour } from './CertificatePreview';

interface Form {
  title: string;
  signatory_name: string;
  signatory_role: string;
  accent_colour: string;
}
interface Logo {
  id: number | null;
  url: string | null;
}

const LOGO_TYPES = 'image/png,image/jpeg';

/**
 * `/entities/{slug}/certificate-branding` (spec 2 §2): the title, signatory, accent colour and logo printed on the
 * organisation's training certificates (GET/PATCH /entities/{slug}/certificate-branding, permission 20). A logo is
 * uploaded through POST /content/images as this entity (PNG or JPEG: what the PDF can print), so uploading needs the
 * content creator's image permissions (63 with 29 or 30); without a logo here the certificate uses the nearest one
 * set above, else the white-label logo. Field errors of a 422 show beside the fields.
 */
export default function CertificateBrandingPage() {
  const { slug = '' } = useParams();
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const entity = useEntity(slug);
  const allowed = can([LearningPerm.whiteLabel]);
  const branding = useCertificateBranding(slug);
  useNotFoundRedirect(entity.error ?? branding.error, 'entity');

  if (entity.isLoading || (allowed && branding.isLoading)) return <LoadingCard lines={6} />;
  if (entity.isError || !entity.data)
    return (
      <LoadError
        error={entity.error}
        fallback={Messages.failedToFetchEntities}
        onRetry={() => void entity.refetch()}
      />
    );
  const name = entity.data.name;
  const header = (
    <PageHeader
      title="Certificate branding"
      description={`How training certificates of ${name} look.`}
      breadcrumbs={[
        { label: organisationsWord(wl), to: '/entities' },
        { label: name, to: `/entities/${slug}` },
        { label: 'Certificate branding' },
      ]}
    />
  );
  if (!allowed)
    return (
      <div>
        {header}
        <EmptyState
          title="No access"
          description="You need the white label permission to change certificates."
        />
      </div>
    );
  if (branding.isError || !branding.data)
    return (
      <div>
        {header}
        <LoadError
          error={branding.error}
          fallback={Messages.somethingWentWrong}
          onRetry={() => void branding.refetch()}
        />
      </div>
    );
  return (
    <div>
      {header}
      <BrandingForm
        slug={slug}
        organisation={name}
        initial={branding.data}
        canUpload={
          can([ContentPerm.contentCreator]) && can([ContentPerm.addContent, ContentPerm.editContent], 'any')
        }
      />
    </div>
  );
}

function BrandingForm({
  slug,
  organisation,
  initial,
  canUpload,
}: {
  slug: string;
  organisation: string;
  initial: {
    title: string;
    signatory_name: string | null;
    signatory_role: string | null;
    accent_colour: string;
    logo_file_id: number | null;
    logo_url?: string | null;
  };
  canUpload: boolean;
}) {
  const queryClient = useQueryClient();
  const fileId = useId();
  const [form, setForm] = useState<Form>({
    title: initial.title,
    signatory_name: initial.signatory_name ?? '',
    signatory_role: initial.signatory_role ?? '',
    accent_colour: initial.accent_colour,
  });
  const [logo, setLogo] = useState<Logo>({ id: initial.logo_file_id, url: initial.logo_url ?? null });
  const [uploading, setUploading] = useState(false);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setLogo({ id: initial.logo_file_id, url: initial.logo_url ?? null });
  }, [initial.logo_file_id, initial.logo_url]);

  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const fieldError = (key: string) => clientErrors[key] ?? errors[key];

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      const uploaded = await uploadLogo(slug, file);
      setLogo({ id: uploaded.id, url: uploaded.url });
      setErrors((e) => ({ ...e, logo_file_id: [] }));
      notifySuccess(Messages.imageUploaded);
    } catch (e) {
      const fields = serverFieldErrors(e);
      setErrors((prev) => ({ ...prev, logo_file_id: fields.image ?? [] }));
      notifyError(errorEnvelope(e, Messages.somethingWentWrong), Messages.somethingWentWrong);
    } finally {
      setUploading(false);
    }
  };

  const submit = async () => {
    const body = {
      title: form.title.trim() || null,
      signatory_name: form.signatory_name.trim() || null,
      signatory_role: form.signatory_role.trim() || null,
      accent_colour: form.accent_colour.trim() || null,
      logo_file_id: logo.id,
    };
    const parsed = CertificateBrandingBody.safeParse(body);
    if (!parsed.success) {
      setClientErrors(zodFieldErrors(parsed.error));
      return;
    }
    setClientErrors({});
    setErrors({});
    setError(null);
    setSaving(true);
    try {
      const res = await saveCertificateBranding(slug, parsed.data);
      notifySuccess(res.message ?? LearningMessages.certificateBrandingUpdated);
      queryClient.setQueryData(['entity-content', slug, 'certificate-branding'], res.data);
    } catch (e) {
      setErrors(serverFieldErrors(e));
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  const logoSrc = logo.url ? `${apiOrigin()}${logo.url}` : null;
  const pickerValue = isHexColour(form.accent_colour) ? form.accent_colour.toLowerCase() : '#1f2937';

  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]">
      <Card>
        <form
          noValidate
          className="space-y-5"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <SaveErrors error={error} clientErrors={clientErrors} />
          <TextField
            label="Certificate title"
            value={form.title}
            onChange={(e) => set('title')(e.target.value)}
            error={fieldError('title')}
            maxLength={120}
            hint="Printed at the top, for example “Certificate of Completion”."
          />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label="Signatory name"
              value={form.signatory_name}
              onChange={(e) => set('signatory_name')(e.target.value)}
              error={fieldError('signatory_name')}
              maxLength={120}
              hint="Leave empty for no signature line."
            />
            <TextField
              label="Signatory role"
              value={form.signatory_role}
              onChange={(e) => set('signatory_role')(e.target.value)}
              error={fieldError('signatory_role')}
              maxLength={120}
            />
          </div>
          <div className="flex items-start gap-2">
            <input
              type="color"
              aria-label="Accent colour picker"
              value={pickerValue}
              onChange={(e) => set('accent_colour')(e.target.value)}
              className="focus-ring mt-7 h-10 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
            />
            <div className="min-w-0 flex-1">
              <TextField
                label="Accent colour"
                value={form.accent_colour}
                onChange={(e) => set('accent_colour')(e.target.value)}
                error={fieldError('accent_colour')}
                spellCheck={false}
                maxLength={7}
                hint="A hex colour like #0f766e: the frame, title and course name."
              />
            </div>
          </div>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-800">Logo</legend>
            <div className="flex flex-wrap items-center gap-3">
              {logoSrc ? (
                <img
                  src={logoSrc}
                  alt="Current certificate logo"
                  className="h-12 w-auto max-w-40 rounded bg-white object-contain ring-1 ring-slate-200"
                />
              ) : (
                <span className="text-sm text-slate-600">
                  No logo of its own: the organisation's branding logo is used.
                </span>
              )}
              {canUpload ? (
                <>
                  <label
                    htmlFor={fileId}
                    className="focus-within:ring-primary-600 inline-flex cursor-pointer items-center rounded-lg bg-white px-3 py-2 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"
                  >
                    {uploading ? 'Uploading…' : logo.id ? 'Replace logo' : 'Upload logo'}
                    <input
                      id={fileId}
                      type="file"
                      accept={LOGO_TYPES}
                      className="sr-only"
                      disabled={uploading}
                      aria-describedby={`${fileId}-hint`}
                      onChange={(e) => {
                        void onFile(e.target.files?.[0]);
                        e.target.value = '';
                      }}
                    />
                  </label>
                  {logo.id ? (
                    <Button variant="ghost" size="sm" onClick={() => setLogo({ id: null, url: null })}>
                      Remove logo
                    </Button>
                  ) : null}
                </>
              ) : null}
            </div>
            <p id={`${fileId}-hint`} className="text-xs text-slate-600">
              PNG or JPEG. Saved with the form.
            </p>
            {fieldError('logo_file_id')?.length ? (
              <p className="text-sm text-danger-700">{fieldError('logo_file_id')?.join(' ')}</p>
            ) : null}
          </fieldset>
          <div className="flex justify-end border-t border-slate-200 pt-4">
            <Button type="submit" loading={saving} disabled={uploading}>
              Save certificate branding
            </Button>
          </div>
        </form>
      </Card>
      <CertificatePreview
        title={form.title}
        accent={form.accent_colour}
        organisation={organisation}
        signatoryName={form.signatory_name}
        signatoryRole={form.signatory_role}
        logoUrl={logoSrc}
      />
    </div>
  );
}

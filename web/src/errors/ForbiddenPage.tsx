import { ButtonLink, Card } from '../ui';

export default function ForbiddenPage() {
  return (
    <Card>
      <div className="space-y-3 py-2 text-center">
        <p className="text-sm font-semibold tracking-wide text-slate-500 uppercase">Error 403</p>
        <h1 className="text-2xl font-semibold text-slate-900">You don't have access to this</h1>
        <p className="text-sm text-slate-600">
          Your account does not have permission to open that page or do that action. If you think it should,
          ask your manager or administrator.
        </p>
        <div className="flex justify-center gap-2 pt-2">
          <ButtonLink to="/">Go to the start page</ButtonLink>
        </div>
      </div>
    </Card>
  );
}

import {
  type AuditEntryView,
  type AuditVia,
  auditChangedFields,
  describeAuditEntry,
  setDateFormat,
} from '@cc/contracts';
import { afterEach, describe, expect, it } from 'vitest';

const entry = (over: Partial<AuditEntryView>): AuditEntryView => ({
  id: 1,
  occurred_at: '2026-03-12T10:00:00Z',
  actor: { id: 7, name: 'Alex Smith' },
  acting_as: null,
  ip: '10.0.0.1',
  action: 'created',
  kind: 'result',
  subject: { id: 3, entity_id: 2, user_id: 9, label: 'Casey Lee: Fire Safety' },
  before: null,
  after: {
    passed: true,
    course_label: 'Fire Safety',
    user_label: 'Casey Lee',
    completed_at: '2026-03-12T00:00:00.000Z',
  },
  via: null,
  ...over,
});

afterEach(() => setDateFormat('DD/MM/YYYY'));

describe('describeAuditEntry (issue 35 §3): one entry in plain words', () => {
  it('says who did what to whose record, in the organisation date format, and as whom they acted', () => {
    expect(describeAuditEntry(entry({}))).toBe(
      "Alex Smith recorded Casey Lee's pass for Fire Safety on 12/03/2026.",
    );
    setDateFormat('MM/DD/YYYY');
    expect(describeAuditEntry(entry({ acting_as: { id: 4, name: 'Rose House' } }))).toBe(
      "Alex Smith recorded Casey Lee's pass for Fire Safety on 03/12/2026 (acting as Rose House).",
    );
  });

  it('names what an edit changed, and reads exemptions, people and organisations', () => {
    const edit = entry({
      action: 'updated',
      before: { passed: true, score: null, course_label: 'Fire Safety', user_label: 'Casey Lee' },
      after: { passed: false, score: 40, course_label: 'Fire Safety', user_label: 'Casey Lee' },
    });
    expect(describeAuditEntry(edit)).toBe(
      "Alex Smith changed the outcome and score of Casey Lee's result for Fire Safety.",
    );
    const exempt = entry({
      kind: 'exemption',
      after: {
        course_label: 'Moving and Handling',
        user_label: 'Casey Lee',
        expires_at: '2027-06-30T00:00:00.000Z',
      },
    });
    expect(describeAuditEntry(exempt)).toBe(
      'Alex Smith exempted Casey Lee from Moving and Handling until 30/06/2027.',
    );
    const moved = entry({
      kind: 'user',
      action: 'updated',
      subject: { id: 9, entity_id: 2, user_id: 9, label: 'Casey Lee' },
      before: { role_id: 1, role_label: 'Care Worker' },
      after: { role_id: 2, role_label: 'Senior Carer' },
    });
    expect(describeAuditEntry(moved)).toBe("Alex Smith changed Casey Lee's role.");
    const home = entry({
      kind: 'entity',
      action: 'updated',
      actor: { id: null, name: null },
      subject: { id: 2, entity_id: 2, user_id: null, label: 'Rose House' },
      before: { id: 2, expiry_warning: 30 },
      after: { id: 2, expiry_warning: 45 },
    });
    expect(describeAuditEntry(home, { entity: 'home' })).toBe(
      'The system changed the expiry warning of the home Rose House.',
    );
  });

  it('says how a result came about when it was not typed in: training taken, attendance, an import and its undo', () => {
    const learner = { id: 9, name: 'Casey Lee' };
    const via = (how: AuditVia['how'], label: string | null, detail: string | null = null): AuditVia => ({
      how,
      label,
      ref: null,
      detail,
    });
    expect(describeAuditEntry(entry({ actor: learner, via: via('elearning', 'Fire Safety Basics') }))).toBe(
      'Casey Lee earned a pass for Fire Safety on 12/03/2026 by passing “Fire Safety Basics” online.',
    );
    expect(describeAuditEntry(entry({ actor: learner, via: via('scorm', 'Fire Safety') }))).toBe(
      'Casey Lee earned a pass for Fire Safety on 12/03/2026 by passing it online.',
    );
    expect(
      describeAuditEntry(
        entry({
          actor: learner,
          via: via('offline', 'Fire Safety Basics'),
          after: {
            passed: false,
            course_label: 'Fire Safety',
            user_label: 'Casey Lee',
            completed_at: '2026-03-12',
          },
        }),
      ),
    ).toBe(
      'Casey Lee recorded a fail for Fire Safety on 12/03/2026 by taking “Fire Safety Basics” offline on a device, synced later.',
    );
    expect(
      describeAuditEntry(
        entry({
          actor: { id: 5, name: 'Tom Trainer' },
          acting_as: { id: 4, name: 'Rose House' },
          via: via('attendance', 'Fire Safety Workshop', 'attended'),
        }),
      ),
    ).toBe(
      'Tom Trainer marked Casey Lee as attended at the session “Fire Safety Workshop”: a pass for Fire Safety on 12/03/2026 (acting as Rose House).',
    );
    expect(
      describeAuditEntry(
        entry({
          actor: { id: 5, name: 'Tom Trainer' },
          action: 'updated',
          via: via('attendance', 'Fire Safety Workshop', 'no_show'),
          before: {
            passed: true,
            course_label: 'Fire Safety',
            user_label: 'Casey Lee',
            completed_at: '2026-03-12',
          },
          after: {
            passed: false,
            course_label: 'Fire Safety',
            user_label: 'Casey Lee',
            completed_at: '2026-03-12',
          },
        }),
      ),
    ).toBe(
      "Tom Trainer changed Casey Lee's attendance mark at the session “Fire Safety Workshop” to a no-show: now a fail for Fire Safety on 12/03/2026.",
    );
    expect(describeAuditEntry(entry({ via: via('import', 'training.csv') }))).toBe(
      "Alex Smith imported Casey Lee's pass for Fire Safety on 12/03/2026 from “training.csv”.",
    );
    expect(
      describeAuditEntry(
        entry({
          action: 'updated',
          via: via('import', 'training.csv'),
          before: { expires_at: '2027-01-01', course_label: 'Fire Safety', user_label: 'Casey Lee' },
          after: { expires_at: '2028-01-01', course_label: 'Fire Safety', user_label: 'Casey Lee' },
        }),
      ),
    ).toBe(
      "Alex Smith changed the end date of Casey Lee's result for Fire Safety, imported from “training.csv”.",
    );
    expect(
      describeAuditEntry(
        entry({
          action: 'deleted',
          via: via('import_undo', 'training.csv'),
          before: entry({}).after,
          after: null,
        }),
      ),
    ).toBe(
      "Alex Smith undid the import of “training.csv”: removed Casey Lee's pass for Fire Safety on 12/03/2026.",
    );
    expect(
      describeAuditEntry(
        entry({
          kind: 'user',
          subject: { id: 9, entity_id: 2, user_id: 9, label: 'Casey Lee' },
          via: via('import', 'staff.csv'),
          after: { name: 'Casey Lee' },
        }),
      ),
    ).toBe('Alex Smith added Casey Lee, imported from “staff.csv”.');
    // A re-mark replaces the result: what changed is its values, not its id.
    expect(
      auditChangedFields({
        before: { id: 3, passed: false, score: null },
        after: { id: 4, passed: true, score: null },
      }),
    ).toEqual(['passed']);
  });
});

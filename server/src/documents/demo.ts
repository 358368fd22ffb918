import { LibraryPerm } from '@cc/contracts';
import PDFDocument from 'pdfkit';
import { PDF_FONT, useUnicodeFonts } from '../pdf/fonts';
import type { Trx } from '../results/queries';
import { recordResult } from '../results/service';
import { newKey, type Storage } from '../storage/storage';

/** Where the demo's files go: the server's storage; null (tests seeding the database only) keeps keys, not bytes. */
export type DemoStorage = Pick<Storage, 'put'> | null;

/**
 * Demo data of documents and libraries (issue 17): a library "Policies" at Meadowbrook Care Group (shared down to its
 * homes) holding two PDFs made with the project's PDF library: the Safeguarding policy at version 2 (a "what changed"
 * note and a check question) and the Whistleblowing policy. Both are Mandatory for care assistants at Oakfield House
 * (compliance rules on their backing courses, so user_requirements and the matrix follow by trigger). Casey Lee
 * (learner@demo.test) has opened and acknowledged the whistleblowing policy, not the safeguarding one. The Manager
 * type gets 134–136 (the Administrator type holds every permission, and organisations allow them all).
 */
export const DEMO_LIBRARY = 'Policies';
export const DEMO_SAFEGUARDING = 'Safeguarding policy';
export const DEMO_WHISTLEBLOWING = 'Whistleblowing policy';

/** A short A4 policy PDF: a title, a version line and paragraphs. */
export async function policyPdf(title: string, version: string, paragraphs: string[]): Promise<Buffer> {
  const doc = useUnicodeFonts(new PDFDocument({ size: 'A4', margin: 56, info: { Title: title } }));
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  doc.font(PDF_FONT.bold).fontSize(20).fillColor('#111827').text(title);
  doc
    .moveDown(0.3)
    .font(PDF_FONT.regular)
    .fontSize(10)
    .fillColor('#6b7280')
    .text(`Meadowbrook Care Group · ${version}`);
  doc.moveDown();
  for (const p of paragraphs)
    doc.font(PDF_FONT.regular).fontSize(11).fillColor('#111827').text(p).moveDown(0.6);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

interface DemoDoc {
  title: string;
  description: string;
  question: { question: string; options: string[]; correct: number } | null;
  versions: { note: string | null; paragraphs: string[] }[];
}

const DOCUMENTS: DemoDoc[] = [
  {
    title: DEMO_SAFEGUARDING,
    description:
      'How we keep the people we support safe from abuse and neglect, and what to do if you are worried.',
    question: {
      question: 'You are worried that someone you support is being abused. What do you do first?',
      options: [
        'Wait until you are sure',
        'Tell the person in charge straight away',
        'Ask the person’s family',
      ],
      correct: 1,
    },
    versions: [
      {
        note: null,
        paragraphs: [
          'Everyone who works at Meadowbrook has a duty to keep the people we support safe from harm.',
          'If you see or suspect abuse or neglect, tell the person in charge straight away and write down what you saw.',
        ],
      },
      {
        note: 'New local authority safeguarding team telephone number, and the out-of-hours contact added.',
        paragraphs: [
          'Everyone who works at Meadowbrook has a duty to keep the people we support safe from harm.',
          'If you see or suspect abuse or neglect, tell the person in charge straight away and write down what you saw.',
          'Local authority safeguarding team: 0113 496 0500. Out of hours: 0113 496 0999.',
        ],
      },
    ],
  },
  {
    title: DEMO_WHISTLEBLOWING,
    description: 'How to raise a concern about poor practice, and how you are protected when you do.',
    question: null,
    versions: [
      {
        note: null,
        paragraphs: [
          'If you are worried about poor practice, raise it with your manager, or with the group office if you cannot.',
          'You will not be treated unfairly for raising a concern in good faith.',
        ],
      },
    ],
  },
];

export async function seedDocumentsDemo(
  trx: Trx,
  o: {
    groupId: number;
    oakfieldId: number;
    careAssistantRoleId: number;
    managerTypeId: number;
    storage: DemoStorage;
    now: Date;
  },
): Promise<void> {
  const { now } = o;
  await trx
    .insertInto('type_permissions')
    .values(Object.values(LibraryPerm).map((permission_id) => ({ type_id: o.managerTypeId, permission_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
  const admin = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'admin@demo.test')
    .executeTakeFirst();
  const learner = await trx
    .selectFrom('users')
    .select(['id', 'name', 'primary_entity_id'])
    .where('email', '=', 'learner@demo.test')
    .executeTakeFirstOrThrow();
  const library = await trx
    .insertInto('libraries')
    .values({
      entity_id: o.groupId,
      name: DEMO_LIBRARY,
      description: 'Policies every member of staff must know.',
      created_by: admin?.id ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const d of DOCUMENTS) {
    const course = await trx
      .insertInto('courses')
      .values({ entity_id: o.groupId, title: d.title, kind: 'document', published: true })
      .returning('id')
      .executeTakeFirstOrThrow();
    const doc = await trx
      .insertInto('documents')
      .values({
        library_id: library.id,
        entity_id: o.groupId,
        course_id: course.id,
        title: d.title,
        description: d.description,
        check_question: d.question ? JSON.stringify(d.question) : null,
        created_by: admin?.id ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    let versionId = 0;
    for (const [i, v] of d.versions.entries()) {
      const bytes = await policyPdf(d.title, `Version ${i + 1}`, v.paragraphs);
      const key = o.storage ? await o.storage.put('documents', bytes, 'pdf') : newKey('documents', 'pdf');
      const file = await trx
        .insertInto('files')
        .values({
          entity_id: o.groupId,
          purpose: 'document',
          storage_key: key,
          original_name: `${d.title.toLowerCase().replace(/\s+/g, '-')}-v${i + 1}.pdf`,
          mime_type: 'application/pdf',
          size_bytes: bytes.length,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const version = await trx
        .insertInto('document_versions')
        .values({
          document_id: doc.id,
          number: i + 1,
          file_id: file.id,
          change_note: v.note,
          created_by: admin?.id ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      versionId = version.id;
    }
    await trx
      .updateTable('documents')
      .set({ current_version_id: versionId })
      .where('id', '=', doc.id)
      .execute();
    await trx
      .insertInto('compliance_rules')
      .values({
        entity_id: o.oakfieldId,
        role_id: o.careAssistantRoleId,
        course_id: course.id,
        type: 'primary',
        validity_months: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    if (d.title === DEMO_WHISTLEBLOWING) {
      const acknowledgedAt = new Date(now.getTime() - 3 * 86_400_000);
      await trx
        .insertInto('document_views')
        .values({ version_id: versionId, user_id: learner.id, first_opened_at: acknowledgedAt })
        .execute();
      const result = await recordResult(
        trx,
        {
          userId: learner.id,
          entityId: learner.primary_entity_id,
          courseId: course.id,
          contentId: null,
          type: 'document',
          passed: true,
          score: null,
          completedAt: acknowledgedAt,
          expiresAt: null,
          attemptId: null,
          createdBy: learner.id,
        },
        now,
      );
      await trx
        .insertInto('document_acknowledgements')
        .values({
          document_id: doc.id,
          version_id: versionId,
          user_id: learner.id,
          typed_name: learner.name,
          acknowledged_at: acknowledgedAt,
          result_id: result.id,
        })
        .execute();
    }
  }
}

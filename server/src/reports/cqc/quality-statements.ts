/**
 * The CQC single assessment framework's quality statements that a home's training records evidence (issue 37 §3), and
 * which of the inspection pack's figures and sections evidence each. The statements' wording is quoted as the CQC
 * publishes it; where it was found, and what could not be sourced, is in SOURCES.md next to this file.
 *
 * Data only: the figures themselves are the pack's (inspection-pack-summary.ts reads them from packFigures), never
 * computed here.
 */

/** A figure of the pack (PackFigures, inspection-pack-summary.ts) that a quality statement cites. */
export type PackFigureKey =
  | 'people'
  | 'inDate'
  | 'expired'
  | 'missing'
  | 'due'
  | 'pending'
  | 'booked'
  | 'exemptions'
  | 'evidence'
  | 'starters'
  | 'careCertificate'
  | 'receipts'
  | 'changes';

/** A section of the pack's PDF, by the heading it prints (inspection-pack.ts records the page each starts on). */
export type PackSectionKey =
  | 'figures'
  | 'matrix'
  | 'gaps'
  | 'starters'
  | 'careCertificate'
  | 'receipts'
  | 'changes'
  | 'evidence'
  | 'exemptions'
  | 'signOff';

export interface QualityStatement {
  /** The key question it sits under, as the CQC names it. */
  keyQuestion: 'Safe' | 'Effective' | 'Caring' | 'Responsive' | 'Well-led';
  /** The quality statement's name, as published. */
  name: string;
  /** The "we statement", word for word as published (SOURCES.md gives the page and its date). */
  statement: string;
  url: string;
  /**
   * Why a training record is evidence for it, in a line (shown on the summary page); `{careCertificate}` stands for the
   * organisation's own name for the Care Certificate.
   */
  why: string;
  figures: PackFigureKey[];
  sections: PackSectionKey[];
}

export const CQC_FRAMEWORK_NAME = 'CQC single assessment framework';

export const QUALITY_STATEMENTS: readonly QualityStatement[] = [
  {
    keyQuestion: 'Safe',
    name: 'Safe and effective staffing',
    statement:
      'We make sure there are enough qualified, skilled and experienced people, who receive effective support, ' +
      'supervision and development. They work together effectively to provide safe care that meets people’s ' +
      'individual needs.',
    url: 'https://www.cqc.org.uk/guidance-regulation/providers/assessment/single-assessment-framework/safe/safe-effective-staffing',
    why: 'Staff receive training appropriate and relevant to their role: who is in date, who is not, and the plan for each gap.',
    figures: ['people', 'inDate', 'expired', 'missing', 'due', 'pending', 'booked', 'exemptions', 'evidence'],
    sections: ['figures', 'matrix', 'gaps', 'evidence', 'exemptions', 'signOff'],
  },
  {
    keyQuestion: 'Safe',
    name: 'Learning culture',
    statement:
      'We have a proactive and positive culture of safety based on openness and honesty, in which concerns about ' +
      'safety are listened to, safety events are investigated and reported thoroughly, and lessons are learned to ' +
      'continually identify and embed good practices.',
    url: 'https://www.cqc.org.uk/guidance-regulation/providers/assessment/single-assessment-framework/safe/learning-culture',
    why: 'Lessons embedded as practice: who has read the current version of each policy, and an open record of every change to training records.',
    figures: ['receipts', 'changes'],
    sections: ['receipts', 'changes'],
  },
  {
    keyQuestion: 'Well-led',
    name: 'Learning, improvement and innovation',
    statement:
      'We focus on continuous learning, innovation and improvement across our organisation and the local system. ' +
      'We encourage creative ways of delivering equality of experience, outcome and quality of life for people. ' +
      'We actively contribute to safe, effective practice and research',
    url: 'https://www.cqc.org.uk/guidance-regulation/providers/assessment/single-assessment-framework/well-led/learning-improvement-innovation',
    why: 'Staff supported to develop their skills: new starters’ induction and {careCertificate} progress, and sessions booked to close gaps.',
    figures: ['starters', 'careCertificate', 'booked'],
    sections: ['gaps', 'starters', 'careCertificate'],
  },
];

import type { ComplianceType } from '@cc/contracts';

/**
 * The starter training matrix (issue 37 §2): the data. Every refresh period, and every "no period", is cited in
 * SOURCES.md beside this file by the source letters in `sources`; a topic with no period in the guidance read has
 * `refreshMonths: null` (the organisation decides, and the product treats a pass as not expiring until it does).
 *
 * `alsoKnownAs` are the usual other names of a course or job role: an organisation's existing course or role with one
 * of them (case and spacing aside) is kept and used instead of adding a second one. The product's own new
 * organisations start with "Care Assistant", "Home Manager", "Cook", "Housekeeper" (demo/seed.ts CARE_ROLES), so
 * those names are here.
 */
export interface StarterCourseDef {
  key: string;
  title: string;
  alsoKnownAs: readonly string[];
  refreshMonths: number | null;
  /** One sentence for the preview: where the period comes from, or why there is none. */
  refreshBasis: string;
  /** The 2025 Care Certificate standard the topic is (reference §4.1), when it is one. */
  careCertificateStandard: string | null;
  sources: readonly string[];
}

export interface StarterRoleDef {
  key: string;
  name: string;
  alsoKnownAs: readonly string[];
  /** Shown to inspectors in the inspection pack (the product's flag for care roles). */
  inspectable: boolean;
}

export interface StarterRuleDef {
  role: string;
  course: string;
  type: ComplianceType;
}

const SFC_YEARLY = 'Skills for Care’s core and mandatory training guidance: yearly.';
const SFC_THREE_YEARLY = 'Skills for Care’s core and mandatory training guidance: every three years.';
const NO_PERIOD = 'No period in the guidance: your organisation decides.';

export const STARTER_COURSES: readonly StarterCourseDef[] = [
  {
    key: 'fire-safety',
    title: 'Fire safety',
    alsoKnownAs: ['Fire safety awareness', 'Fire awareness'],
    refreshMonths: 12,
    refreshBasis: SFC_YEARLY,
    careCertificateStandard: '13 Health and safety',
    sources: ['B', 'D', 'F'],
  },
  {
    key: 'moving-and-handling',
    title: 'Moving and handling',
    alsoKnownAs: [
      'Manual handling',
      'Moving and handling people',
      'Moving and positioning',
      'Assisting and moving people',
      'People handling',
    ],
    refreshMonths: 12,
    refreshBasis: 'Skills for Care’s guidance: at least yearly, and when a new risk is introduced.',
    careCertificateStandard: '13 Health and safety',
    sources: ['B', 'C', 'D', 'F'],
  },
  {
    key: 'safeguarding-adults',
    title: 'Safeguarding adults',
    alsoKnownAs: ['Safeguarding', 'Adult safeguarding', 'Safeguarding vulnerable adults'],
    refreshMonths: 12,
    refreshBasis: SFC_YEARLY,
    careCertificateStandard: '10 Adult safeguarding',
    sources: ['B', 'D'],
  },
  {
    key: 'basic-life-support',
    title: 'Basic life support',
    alsoKnownAs: ['First aid and basic life support', 'Basic life support and first aid', 'CPR'],
    refreshMonths: 12,
    refreshBasis: SFC_YEARLY,
    careCertificateStandard: '12 Basic life support',
    sources: ['B', 'D'],
  },
  {
    key: 'medication',
    title: 'Medication',
    alsoKnownAs: [
      'Medication administration',
      'Medicines management',
      'Safe handling of medicines',
      'Administration of medication',
    ],
    refreshMonths: 12,
    refreshBasis:
      'Skills for Care’s guidance: yearly; NICE: a yearly review of the competence of staff who give medicines.',
    careCertificateStandard: null,
    sources: ['B', 'I'],
  },
  {
    key: 'health-and-safety',
    title: 'Health and safety',
    alsoKnownAs: ['Health and safety awareness', 'Health, safety and welfare'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '13 Health and safety',
    sources: ['B', 'D', 'F'],
  },
  {
    key: 'infection-prevention-and-control',
    title: 'Infection prevention and control',
    alsoKnownAs: ['Infection control', 'IPC'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '15 Infection prevention and control',
    sources: ['B', 'D', 'F'],
  },
  {
    key: 'food-safety',
    title: 'Food safety',
    alsoKnownAs: ['Food hygiene', 'Food safety and hygiene', 'Food hygiene and safety'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: null,
    sources: ['B', 'D', 'F'],
  },
  {
    key: 'equality-and-diversity',
    title: 'Equality and diversity',
    alsoKnownAs: [
      'Equality, diversity and human rights',
      'Equality, diversity, inclusion and human rights',
      'Equality and inclusion',
    ],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '4 Equality, diversity, inclusion and human rights',
    sources: ['B', 'D', 'F'],
  },
  {
    key: 'learning-disability-and-autism',
    title: 'Learning disability and autism',
    alsoKnownAs: [
      'Oliver McGowan Mandatory Training on Learning Disability and Autism',
      'Oliver McGowan Mandatory Training',
      'Learning disability and autism awareness',
      'Awareness of learning disability and autism',
    ],
    refreshMonths: null,
    refreshBasis: 'A legal duty since July 2022; no period in the guidance: your organisation decides.',
    careCertificateStandard: '16 Awareness of learning disability and autism',
    sources: ['G', 'H', 'B'],
  },
  {
    key: 'mental-capacity',
    title: 'Mental Capacity Act and Deprivation of Liberty Safeguards',
    alsoKnownAs: ['Mental capacity', 'Mental Capacity Act', 'MCA and DoLS', 'Mental capacity and DoLS'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: null,
    sources: ['B', 'D'],
  },
  {
    key: 'person-centred-care',
    title: 'Person-centred care',
    alsoKnownAs: ['Person centred care', 'Work in a person-centred way', 'Relationship-centred care'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '5 Work in a person-centred way',
    sources: ['B', 'D'],
  },
  {
    key: 'communication',
    title: 'Communication',
    alsoKnownAs: ['Effective communication', 'Communication in care'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '6 Communication',
    sources: ['B', 'D'],
  },
  {
    key: 'privacy-and-dignity',
    title: 'Privacy and dignity',
    alsoKnownAs: ['Dignity', 'Dignity in care', 'Privacy and dignity in care'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '7 Privacy and dignity',
    sources: ['B', 'D'],
  },
  {
    key: 'fluids-and-nutrition',
    title: 'Fluids and nutrition',
    alsoKnownAs: ['Nutrition and hydration', 'Hydration and nutrition'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: '8 Fluids and nutrition',
    sources: ['B', 'D'],
  },
  {
    key: 'recording-and-reporting',
    title: 'Recording and reporting',
    alsoKnownAs: ['Reporting and recording', 'Record keeping'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: null,
    sources: ['B', 'D'],
  },
  {
    key: 'oral-health',
    title: 'Oral health',
    alsoKnownAs: ['Oral health care', 'Mouth care'],
    refreshMonths: 36,
    refreshBasis: SFC_THREE_YEARLY,
    careCertificateStandard: null,
    sources: ['B', 'D'],
  },
  {
    key: 'dementia-awareness',
    title: 'Dementia awareness',
    alsoKnownAs: ['Dementia', 'Awareness of mental health and dementia', 'Dementia care'],
    refreshMonths: null,
    refreshBasis: NO_PERIOD,
    careCertificateStandard: '9 Awareness of mental health and dementia',
    sources: ['J', 'D'],
  },
  {
    key: 'handling-information',
    title: 'Handling information',
    alsoKnownAs: [
      'Information governance',
      'Data protection',
      'GDPR',
      'Information governance and data protection',
    ],
    refreshMonths: null,
    refreshBasis: NO_PERIOD,
    careCertificateStandard: '14 Handling information',
    sources: ['J'],
  },
];

export const STARTER_ROLES: readonly StarterRoleDef[] = [
  {
    key: 'care-worker',
    name: 'Care worker',
    alsoKnownAs: [
      'Care Assistant',
      'Carer',
      'Support Worker',
      'Healthcare Assistant',
      'Health Care Assistant',
    ],
    inspectable: true,
  },
  {
    key: 'senior-carer',
    name: 'Senior carer',
    alsoKnownAs: ['Senior Care Assistant', 'Senior Care Worker', 'Senior Support Worker'],
    inspectable: true,
  },
  { key: 'nurse', name: 'Nurse', alsoKnownAs: ['Registered Nurse', 'Staff Nurse'], inspectable: true },
  {
    key: 'registered-manager',
    name: 'Registered manager',
    alsoKnownAs: ['Home Manager', 'Care Home Manager', 'Manager'],
    inspectable: true,
  },
  {
    key: 'kitchen-staff',
    name: 'Kitchen staff',
    alsoKnownAs: ['Cook', 'Chef', 'Kitchen Assistant', 'Catering Assistant'],
    inspectable: false,
  },
  {
    key: 'domestic-staff',
    name: 'Domestic staff',
    alsoKnownAs: ['Housekeeper', 'Domestic', 'Domestic Assistant', 'Cleaner', 'Laundry Assistant'],
    inspectable: false,
  },
];

const M = 'primary' as const;
const R = 'secondary' as const;

/** Mandatory (primary) and Required (secondary) per role; SOURCES.md "Who needs what" gives the reasons. */
const CARE_CORE: [string, ComplianceType][] = [
  ['fire-safety', M],
  ['health-and-safety', M],
  ['moving-and-handling', M],
  ['safeguarding-adults', M],
  ['basic-life-support', M],
  ['infection-prevention-and-control', M],
  ['food-safety', M],
  ['equality-and-diversity', M],
  ['learning-disability-and-autism', M],
  ['mental-capacity', R],
  ['person-centred-care', R],
  ['communication', R],
  ['privacy-and-dignity', R],
  ['fluids-and-nutrition', R],
  ['recording-and-reporting', R],
  ['oral-health', R],
  ['dementia-awareness', R],
  ['handling-information', R],
];

const BY_ROLE: Record<string, [string, ComplianceType][]> = {
  'care-worker': CARE_CORE,
  'senior-carer': [...CARE_CORE, ['medication', M]],
  nurse: [...CARE_CORE, ['medication', M]],
  'registered-manager': [
    ['fire-safety', M],
    ['health-and-safety', M],
    ['safeguarding-adults', M],
    ['equality-and-diversity', M],
    ['learning-disability-and-autism', M],
    ['infection-prevention-and-control', R],
    ['mental-capacity', R],
    ['handling-information', R],
  ],
  'kitchen-staff': [
    ['fire-safety', M],
    ['health-and-safety', M],
    ['food-safety', M],
    ['infection-prevention-and-control', M],
    ['equality-and-diversity', M],
    ['learning-disability-and-autism', M],
    ['safeguarding-adults', R],
  ],
  'domestic-staff': [
    ['fire-safety', M],
    ['health-and-safety', M],
    ['infection-prevention-and-control', M],
    ['equality-and-diversity', M],
    ['learning-disability-and-autism', M],
    ['safeguarding-adults', R],
  ],
};

export const STARTER_RULES: readonly StarterRuleDef[] = STARTER_ROLES.flatMap((role) =>
  (BY_ROLE[role.key] ?? []).map(([course, type]) => ({ role: role.key, course, type })),
);

/** Case, spacing and punctuation aside: "Infection  Control" and "infection control" are one name. */
export function nameKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’'`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

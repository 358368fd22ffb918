import type { DbOrTrx } from '../jobs/queries';

/**
 * Demo help articles (issue 14): what a new manager, learner or administrator asks first, each matched to the route
 * patterns of the pages it explains (spec 1 §2: params replaced by a star). Bodies use the small markdown subset of
 * contracts help.ts.
 */
export const DEMO_HELP_ARTICLES = [
  {
    title: 'Reading the compliance matrix',
    url_regex: '^/reports/matrix(-legacy)?$',
    link_suffix: '#matrix',
    body: [
      'The matrix shows one row per person and one column per course their job role requires.',
      '## What the cells mean',
      '- **In date**: the latest pass has not expired (or never expires).',
      '- **Expiring**: the pass runs out within your organisation’s warning period.',
      '- **Expired**: the pass is past its expiry date; the person needs to retake the course.',
      '- **Missing**: there is no pass at all.',
      '- **Exempt**: a manager recorded that this course does not apply to the person; it counts as in date.',
      '## Narrowing it down',
      'Use the filters above the grid to pick organisations, job roles or courses, to include or leave out new starters, and to switch between Mandatory and Required courses. Select a cell to see the result behind it.',
      'Export the same view to PDF or XLSX with the export button; the file shows exactly the filters you chose.',
    ].join('\n\n'),
  },
  {
    title: 'Adding a training record',
    url_regex: '^/(results/historical/(create|update/\\*)|users/\\*)$',
    link_suffix: null,
    body: [
      'Training done outside the platform (a first-aid course at a college, a previous employer’s certificate) is added as a historical result, so it counts in the matrix and in reports.',
      '1. Open **Training records**, then **Add training record**, or start from the person’s profile.',
      '2. Choose the person and the course, then the completed date and the outcome (Passed or Not passed).',
      '3. Attach the certificate as the evidence file if your organisation asks for evidence.',
      '4. Save. If your organisation approves records first, the record waits under **Pending approvals** until a manager approves it; until then it does not count.',
      'The expiry date is worked out from the course’s validity for the person’s job role, starting at the completed date.',
    ].join('\n\n'),
  },
  {
    title: 'Your manager dashboard',
    url_regex: '^/manager-dashboard$',
    link_suffix: null,
    body: [
      'The manager dashboard is your day at a glance for the homes you look after.',
      '- **Out of date now**: people with an expired or missing Mandatory course. Select a name to open their training.',
      '- **Expiring soon**: passes that run out in the next 30 days, so you can book the training before they lapse.',
      '- **Pending approvals**: training records your staff sent for approval.',
      '- **Compliance score**: in-date courses divided by required courses. Green is 85% and above, amber 65% to 84%, red below 65%.',
      'Switch home with the organisation button in the header; the dashboard follows.',
    ].join('\n\n'),
  },
  {
    title: 'Running a compliance report',
    url_regex: '^/reports/(compliance|compliance-legacy|role)$',
    link_suffix: null,
    body: [
      'The compliance report gives each organisation’s score and the trend over the last 12 months.',
      '1. Choose the organisations (and whether to include the homes below them), the job roles and the courses.',
      '2. Choose Mandatory or Required courses and whether new starters count.',
      '3. Run the report. Select an organisation to drill down to its people.',
      'Download it as PDF for an inspection, or XLSX to work with the figures. A very large report is e-mailed to you when it is ready instead of being shown on screen.',
      'Want it every month without asking? Save the filters as a report preset and add a schedule.',
    ].join('\n\n'),
  },
  {
    title: 'Signing in and keeping your account safe',
    url_regex: '^/(account/sessions|update-password|login)$',
    link_suffix: null,
    body: [
      'Sign in with your work e-mail address and password. After a few wrong passwords the sign-in slows down for a while to protect your account; wait and try again, or use **Forgotten password** on the sign-in page to choose a new one.',
      '## Sessions and devices',
      'This page lists every browser and phone signed in to your account. If you see one you do not recognise, end it and change your password.',
      '## Changing your password',
      'Open your account menu (your initials, top right) and choose **Change password**. Your organisation may require a stronger password or ask you to change it after a number of months.',
    ].join('\n\n'),
  },
];

export async function seedHelpDemo(trx: DbOrTrx): Promise<void> {
  await trx.insertInto('help_articles').values(DEMO_HELP_ARTICLES).execute();
}

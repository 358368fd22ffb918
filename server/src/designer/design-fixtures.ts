/** Pages of every block type for designer tests (issue 17). */
let n = 0;
export const uid = () => `b${++n}`;
export const samplePages = () => [
  {
    id: uid(),
    title: 'Why it matters',
    blocks: [
      { id: uid(), type: 'heading', text: 'Moving people safely', level: 2 },
      { id: uid(), type: 'text', html: '<p>Plan <strong>every</strong> move.</p>' },
      { id: uid(), type: 'callout', tone: 'tip', html: '<p>Ask first.</p>' },
    ],
  },
  {
    id: uid(),
    title: 'Check',
    blocks: [
      { id: uid(), type: 'accordion', items: [{ title: 'Hoists', html: '<p>Two people.</p>' }] },
      { id: uid(), type: 'video', url: 'https://www.youtube.com/watch?v=abc', title: 'A safe transfer' },
      {
        id: uid(),
        type: 'question',
        question: 'Who plans a move?',
        options: ['Everyone', 'Nobody'],
        correct: 0,
      },
    ],
  },
];

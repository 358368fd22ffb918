import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cx } from './cx';

export interface TabItem {
  key: string;
  label: ReactNode;
  content: ReactNode;
}

/** Tabs with the WAI-ARIA keyboard pattern (arrow keys move between tabs). */
export function Tabs({
  tabs,
  selectedIndex,
  onChange,
  label,
}: {
  tabs: TabItem[];
  selectedIndex?: number;
  onChange?: (index: number) => void;
  label: string;
}) {
  return (
    <TabGroup selectedIndex={selectedIndex} onChange={onChange}>
      <TabList aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-200">
        {tabs.map((t) => (
          <Tab
            key={t.key}
            className={({ selected }) =>
              cx(
                'focus-ring -mb-px border-b-2 px-4 py-2.5 text-sm font-medium whitespace-nowrap',
                selected
                  ? 'border-primary-700 text-primary-800'
                  : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900',
              )
            }
          >
            {t.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="pt-4">
        {tabs.map((t) => (
          <TabPanel key={t.key} className="focus-ring rounded">
            {t.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}

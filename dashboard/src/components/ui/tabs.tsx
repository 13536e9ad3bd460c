import * as RadixTabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';

export const Tabs = RadixTabs.Root;
export const TabsContent = RadixTabs.Content;

export function TabsList({ label, tabs }: { label: string; tabs: { value: string; label: ReactNode }[] }) {
  return (
    <RadixTabs.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-line">
      {tabs.map((tab) => (
        <RadixTabs.Trigger
          key={tab.value}
          value={tab.value}
          className="-mb-px border-b-2 border-transparent px-3 py-2 focus-visible:outline-offset-[-2px] text-sm font-medium whitespace-nowrap text-fg-muted hover:text-fg data-[state=active]:border-accent data-[state=active]:text-accent-fg"
        >
          {tab.label}
        </RadixTabs.Trigger>
      ))}
    </RadixTabs.List>
  );
}

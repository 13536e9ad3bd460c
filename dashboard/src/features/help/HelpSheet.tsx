import * as RadixDialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { Link } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { HelpNav } from './HelpNav';

/** The help sidebar: a panel from the right with every guide, opened from the top bar. */
export function HelpSheet() {
  const [open, setOpen] = useState(false);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={buttonClasses('ghost', 'md')}>Help</RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-900/30" />
        <RadixDialog.Content className="fixed inset-y-0 right-0 z-50 flex w-80 max-w-[90vw] flex-col overflow-y-auto bg-white p-5 shadow-xl focus:outline-none">
          <div className="mb-4 flex items-center justify-between">
            <RadixDialog.Title className="text-lg font-semibold text-zinc-900">Help</RadixDialog.Title>
            <RadixDialog.Close aria-label="Close help" className="rounded-md px-2 py-1 text-lg leading-none text-zinc-500 hover:bg-zinc-100">
              ×
            </RadixDialog.Close>
          </div>
          <RadixDialog.Description className="mb-4 text-sm text-zinc-600">
            Short guides to every part of Betty. <Link to="/getting-started" className="font-medium text-brand-700 underline" onClick={() => setOpen(false)}>Start here</Link>.
          </RadixDialog.Description>
          <HelpNav onNavigate={() => setOpen(false)} />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

import * as RadixDialog from '@radix-ui/react-dialog';
import { CircleHelp, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { buttonClasses } from '../../components/ui/button';
import { HelpNav } from './HelpNav';

/** The help sidebar: a panel from the right with every guide, opened from the top bar. */
export function HelpSheet() {
  const [open, setOpen] = useState(false);
  return (
    <RadixDialog.Root open={open} onOpenChange={setOpen}>
      <RadixDialog.Trigger className={buttonClasses('ghost', 'md', 'px-2 sm:px-3')}>
        <CircleHelp aria-hidden="true" className="size-5! sm:size-4!" />
        <span className="sr-only sm:not-sr-only">Help</span>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <RadixDialog.Content className="fixed inset-y-0 right-0 z-50 flex w-80 max-w-[90vw] flex-col overflow-y-auto border-l border-line bg-surface p-5 shadow-xl focus:outline-none">
          <div className="mb-4 flex items-center justify-between">
            <RadixDialog.Title className="text-lg font-semibold text-fg">Help</RadixDialog.Title>
            <RadixDialog.Close aria-label="Close help" className="rounded-md p-1.5 text-fg-subtle hover:bg-muted hover:text-fg">
              <X aria-hidden="true" className="size-4" />
            </RadixDialog.Close>
          </div>
          <RadixDialog.Description className="mb-4 text-sm text-fg-muted">
            Short guides to every part of Betty. <Link to="/getting-started" className="font-medium text-accent-fg underline" onClick={() => setOpen(false)}>Start here</Link>.
          </RadixDialog.Description>
          <HelpNav onNavigate={() => setOpen(false)} />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

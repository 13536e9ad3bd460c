// Loaded on the first ⌘K / Ctrl-K or search-button press, not with the dashboard.
import * as RadixDialog from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import { CornerDownLeft, Search } from 'lucide-react';

import { useState } from 'react';

import { PALETTE_GROUPS, filterCommands, type PaletteCommand } from '../../lib/palette';

interface CommandPaletteProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  commands: readonly PaletteCommand[];
  onRun: (command: PaletteCommand) => void;
}

export default function CommandPalette({ open, onOpenChange, commands, onRun }: CommandPaletteProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px]" />
        <RadixDialog.Content aria-describedby={undefined} className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-1.5rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl border border-line bg-surface shadow-xl focus:outline-none">
          <RadixDialog.Title className="sr-only">Command palette</RadixDialog.Title>
          <PaletteBody commands={commands} onRun={onRun} />
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The search and the list; mounted while the dialog is open, so each opening starts with an empty query. */
function PaletteBody({ commands, onRun }: Pick<CommandPaletteProps, 'commands' | 'onRun'>) {
  // The palette filters itself (filterCommands), the same way for every group, Recent included.
  const [query, setQuery] = useState('');
  const shown = filterCommands(commands, query);
  // While searching, the group holding the best match comes first, so Enter runs it.
  const first = (group: string) => shown.findIndex((c) => c.group === group);
  const groups = query.trim() ? [...PALETTE_GROUPS].sort((a, b) => first(a) - first(b)) : PALETTE_GROUPS;
  return (
    <Command label="Command palette" loop shouldFilter={false} className="flex max-h-[min(28rem,70vh)] flex-col">
      <div className="flex items-center gap-2 border-b border-line px-3">
        <Search aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
        <Command.Input value={query} onValueChange={setQuery} placeholder="Search pages, teams and actions…" className="h-12 w-full bg-transparent text-sm text-fg outline-none placeholder:text-fg-subtle" />
        <kbd className="hidden rounded border border-line px-1.5 text-xs text-fg-subtle sm:block">Esc</kbd>
      </div>
      <Command.List className="overflow-y-auto p-1.5">
        <Command.Empty className="px-3 py-8 text-center text-sm text-fg-muted">Nothing matches. Try a page name, a team or an action.</Command.Empty>
        {groups.map((group) => {
          const items = shown.filter((c) => c.group === group);
          if (items.length === 0) return null;
          return (
            <Command.Group key={group} heading={group} className="[&_[cmdk-group-heading]]:px-2.5 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-fg-subtle">
              {items.map((command) => {
                const Icon = command.icon;
                return (
                  <Command.Item
                    key={command.id}
                    value={command.id}
                    onSelect={() => onRun(command)}
                    className="group flex cursor-default items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-fg-soft select-none data-[selected=true]:bg-accent-subtle data-[selected=true]:text-accent-fg"
                  >
                    <Icon aria-hidden="true" className="size-4 shrink-0 text-fg-subtle group-data-[selected=true]:text-accent-fg" />
                    <span className="flex-1 truncate">{command.label}</span>
                    <CornerDownLeft aria-hidden="true" className="hidden size-3.5 group-data-[selected=true]:block" />
                  </Command.Item>
                );
              })}
            </Command.Group>
          );
        })}
      </Command.List>
      <div className="flex items-center gap-3 border-t border-line bg-subtle px-3 py-2 text-xs text-fg-subtle">
        <span>↑↓ to move</span>
        <span>Enter to open</span>
        <span>Esc to close</span>
      </div>
    </Command>
  );
}

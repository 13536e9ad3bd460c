import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input } from '../../components/ui/input';
import { describeError, toast } from '../../components/ui/toast-store';
import { grantCreditsMutationOptions } from './queries';

/** The contract's bounds of one grant (grantAdminOrganizationCredits). */
const MIN_CREDITS = 1;
const MAX_CREDITS = 100_000;

function dollars(n: number): string {
  return n.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** Grant credits to a team: how many, then the team's new balance (or why not) is shown. */
export function GrantCreditsDialog({ organizationId, name }: { organizationId: string; name: string }) {
  const queryClient = useQueryClient();
  const grant = useMutation(grantCreditsMutationOptions(queryClient));
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('50');
  const [invalid, setInvalid] = useState<string>();
  const [balance, setBalance] = useState<number>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const credits = Number(amount);
    if (!Number.isInteger(credits) || credits < MIN_CREDITS || credits > MAX_CREDITS) {
      setInvalid(`Enter a whole number of credits from ${MIN_CREDITS} to ${MAX_CREDITS.toLocaleString('en-US')}.`);
      return;
    }
    setInvalid(undefined);
    grant.mutate(
      { organizationId, credits },
      {
        onSuccess: (org) => {
          setBalance(org.balance);
          toast.success(`Granted ${credits.toLocaleString('en-US')} credits to ${name}. Its balance is ${dollars(org.balance)}.`);
        },
      },
    );
  }

  function change(next: boolean) {
    setOpen(next);
    if (!next) {
      grant.reset();
      setBalance(undefined);
      setInvalid(undefined);
    }
  }

  const error = invalid ?? (grant.isError ? describeError(grant.error) : undefined);
  return (
    <>
      <Button size="sm" variant="secondary" onClick={() => change(true)} aria-label={`Grant credits to ${name}`}>
        <Coins aria-hidden="true" />
        Grant credits
      </Button>
      <Dialog open={open} onOpenChange={change}>
        <DialogContent title={`Grant credits to ${name}`} description="Credits pay for calls through a real carrier (one credit is one US dollar). No payment is taken; the grant is written to the team's credit ledger with your name.">
          <form onSubmit={submit} noValidate>
            <Field label="Credits" error={error}>
              {(props) => (
                <Input
                  {...props}
                  type="number"
                  inputMode="numeric"
                  min={MIN_CREDITS}
                  max={MAX_CREDITS}
                  step={1}
                  value={amount}
                  onChange={(e) => {
                    setAmount(e.target.value);
                    setBalance(undefined);
                  }}
                />
              )}
            </Field>
            {balance !== undefined && (
              <p role="status" className="mt-3 text-sm text-fg">
                Granted. {name}'s balance is now <strong>{dollars(balance)}</strong>.
              </p>
            )}
            <DialogFooter>
              <Button type="button" variant="secondary" onClick={() => change(false)}>
                {balance !== undefined ? 'Done' : 'Cancel'}
              </Button>
              <Button type="submit" busy={grant.isPending} busyLabel="Granting…">
                Grant credits
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </>
  );
}

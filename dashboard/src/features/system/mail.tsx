// Where this server's e-mails go. With an SMTP relay they reach people's inboxes; without one
// (`outbox`) nothing leaves the server: each link is written to the server's log and kept in
// the outbox a site admin can read. The dashboard never says "we sent you a link" unless it was.

import { useGetServerInfo } from '../../api/gen/system/system';
import type { MailDelivery } from '../../api/gen/model';

function useServerInfo() {
  // What a deployment does does not change while the page is open.
  return useGetServerInfo({ query: { staleTime: Infinity, gcTime: Infinity, retry: false } });
}

/** 'smtp', 'outbox', or undefined while the server has not said (or cannot be asked). */
export function useMailDelivery(): MailDelivery | undefined {
  return useServerInfo().data?.data.mailDelivery;
}

/**
 * Whether this server requires a confirmed e-mail (to sign in): only when it delivers mail, so
 * the link can reach the person. undefined while the server has not said.
 */
export function useEmailConfirmationRequired(): boolean | undefined {
  return useServerInfo().data?.data.emailConfirmationRequired;
}

/**
 * Where a link went on a server without an e-mail relay, said the same way on every screen;
 * `will` before the link exists (a dialog about to make one).
 */
export function OutboxExplanation({ will = false }: { will?: boolean }) {
  return (
    <>
      This server has no e-mail relay configured, so the link {will ? 'will be' : 'was'} written to the server&apos;s log; a site admin can also find it
      under Admin → Outgoing mail or with <code className="rounded bg-black/5 px-1 font-mono text-[0.8125rem]">betty admin mail list</code>.
    </>
  );
}

/** A short form for toasts, which have one line to say it. */
export const OUTBOX_SHORT = "Its link is in the server's log and under Admin → Outgoing mail (this server sends no e-mail).";

/**
 * Wording for the moments the dashboard talks about an e-mailed link, by delivery. `unknown`
 * is for a server that has not said: it claims neither that an e-mail went nor that none did.
 */
export function mailWords(delivery: MailDelivery | undefined) {
  const mode = delivery ?? 'unknown';
  return {
    mode,
    resendLabel: { smtp: 'Send the link again', outbox: 'Create a new link', unknown: 'Get a new link' }[mode],
    resendBusy: { smtp: 'Sending…', outbox: 'Creating…', unknown: 'Working…' }[mode],
    resendDone: { smtp: 'Link sent', outbox: 'New link created', unknown: 'New link created' }[mode],
    resent: {
      smtp: 'We sent a new confirmation link.',
      outbox: `A new confirmation link was created. ${OUTBOX_SHORT}`,
      unknown: 'A new confirmation link was created.',
    }[mode],
    /** The server refuses a new link within a minute of the last; its words assume an inbox. */
    resendTooSoon: {
      smtp: 'We sent a link less than a minute ago. Please check your inbox.',
      outbox: "A link was created less than a minute ago: it is in the server's log and under Admin → Outgoing mail.",
      unknown: 'A link was created less than a minute ago. Try again in a minute.',
    }[mode],
    invited: (email: string) =>
      ({
        smtp: `We sent an invitation to ${email}.`,
        outbox: `Created an invitation to ${email}. ${OUTBOX_SHORT}`,
        unknown: `Created an invitation to ${email}.`,
      })[mode],
    reinvited: (email: string) =>
      ({
        smtp: `We sent ${email} a new invitation.`,
        outbox: `Created a new invitation to ${email}. ${OUTBOX_SHORT}`,
        unknown: `Created a new invitation to ${email}.`,
      })[mode],
    transferSent: (email: string) =>
      ({
        smtp: `We sent ${email} a link to confirm the transfer.`,
        outbox: `Created a link for ${email} to confirm the transfer. ${OUTBOX_SHORT}`,
        unknown: `Created a link for ${email} to confirm the transfer.`,
      })[mode],
  };
}

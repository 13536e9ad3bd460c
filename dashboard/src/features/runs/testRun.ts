// The test-run form's checks (the contract's limits, so a mistake is said before the server
// answers 400) and how the test's call is recognised among the team's calls: test calls carry
// no job id (the contract), so it is the newest call of this workflow to the number tested,
// started after the test job.

import type { CallLog } from '../../api/gen/model';

export interface TestRunForm {
  destinationPhoneNumber: string;
  customerDescription: string;
  nameOrEmail: string;
}

export type TestRunErrors = Partial<Record<keyof TestRunForm, string>>;

const E164 = /^\+[1-9][0-9]{6,14}$/;

export function validateTestRun(form: TestRunForm): TestRunErrors {
  const errors: TestRunErrors = {};
  const number = form.destinationPhoneNumber.trim();
  if (!number) errors.destinationPhoneNumber = 'Enter the number to call.';
  else if (!E164.test(number)) errors.destinationPhoneNumber = 'Write it in international format: + then the country code and number, like +14155550123.';
  const name = form.nameOrEmail.trim();
  if (!name) errors.nameOrEmail = 'Enter a name or an e-mail address.';
  else if (name.length > 254) errors.nameOrEmail = 'At most 254 characters.';
  const persona = form.customerDescription.trim();
  if (!persona) errors.customerDescription = 'Describe who the agent is talking to.';
  else if (persona.length > 2000) errors.customerDescription = 'At most 2000 characters.';
  return errors;
}

/** Clocks of the browser and the server may differ a little. */
const CLOCK_SLACK_MS = 60_000;

/** The test call among `calls`: this workflow's outbound call to `to`, started after the job (allowing clock skew); the newest if several. */
export function findTestCall(calls: readonly CallLog[], { workflowId, to, since }: { workflowId: string; to: string; since: string }): CallLog | null {
  const after = Date.parse(since) - CLOCK_SLACK_MS;
  const matches = calls.filter((c) => c.workflowId === workflowId && c.to === to && c.direction === 'outbound' && Date.parse(c.startTime) >= after);
  matches.sort((a, b) => Date.parse(b.startTime) - Date.parse(a.startTime));
  return matches[0] ?? null;
}

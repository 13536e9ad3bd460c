// Package runs is the dialer: the jobs that call a workflow's contacts (River workers), the
// rules checked at the moment of each dial, and the call driver that holds each call through
// the carrier's events (HandleCallEvent) with the conversation engine.
//
// # A job
//
// Start writes, in one transaction, the job (workflow_jobs, status in-progress, with the
// graph, caller number and dialing settings as they are now; the calling window, its time
// zone and the concurrency of a campaign's job follow the campaign while the job runs,
// waiting.go), one attempt per pending contact
// (contact_attempts, state scheduled) and the River job that drives them (the dispatcher,
// kind workflow_run_dial). The dispatcher holds a lease on the job (workflow_jobs.dispatcher,
// renewed every round, 15 s): a dispatcher on a replica that died loses it and the periodic
// sweep (every 10 s, workflow_run_sweep) inserts another, so a SIGKILL stalls a job seconds,
// not River's 15-minute rescue. It claims due attempts in batches, checks the rules, dials,
// and snoozes itself until the next attempt is due; it ends the job with success when no
// attempt is open. End cancels the scheduled attempts (their contacts stay pending), lets
// calls on the line finish and ends the job cancelled. One dispatcher works a job at a time
// (the lease), and every state change of an attempt is a conditional UPDATE from the states it
// may leave, so even two dispatchers for a moment, a rescued worker or a second replica
// handling a webhook move an attempt at most once.
//
// # The states of an attempt
//
//	scheduled ──(rules pass; recorded and committed BEFORE the carrier is asked)──▶ dialling
//	scheduled ──(on the do-not-call list)──▶ suppressed (final, never dialled)
//	scheduled ──(a number of a kind the job may not call)──▶ refused (final, never dialled)
//	scheduled ──(outside the window, frequency cap, concurrency, CPS)──▶ scheduled, due later
//	scheduled ──(job ended)──▶ cancelled (final; the contact stays pending)
//	dialling ──(Dial answered the call's id, or call.initiated)──▶ ringing
//	dialling ──(Dial failed without a doubt: the carrier refused)──▶ failed
//	dialling ──(Dial's answer lost: timeout, 5xx, or the process died)──▶ in-doubt
//	in-doubt ──(an event carrying its attempt id)──▶ ringing / in-call / final
//	in-doubt ──(no event for DoubtAfter)──▶ asked again with Dial and the SAME key (the
//	            carrier's idempotency: no second call is placed) ──▶ ringing or failed
//	ringing ──(call.answered)──▶ in-call ──(call.hangup)──▶ completed / voicemail / failed
//	ringing ──(call.hangup)──▶ busy / no-answer / failed
//	in-doubt, ringing, in-call ──(silent, and the carrier no longer has the call: the sweep)──▶
//	            completed / voicemail (answered) or failed (not), as a hang-up with cause "lost"
//	in-call ──(past its maximum duration: the sweep sends Hangup)──▶ … call.hangup as above
//
// Attempts left dialling by a process that died are found by the dispatcher (older than
// DoubtAfter) and moved to in-doubt, then reconciled as above: never dialled with a new key.
// busy, no-answer and voicemail are retried while the campaign's attempts allow (1 + its
// retryAttempts), after its retryDelayMinutes: the attempt is marked retried and a new row
// (attempt n+1, id job.seq.n+1) is inserted in the same transaction.
//
// # Every call ends (sweep.go)
//
// A call is held by the carrier's events, and one whose hang-up never arrives (a lost
// webhook, a carrier outage, a crash at the wrong moment) would hold a line for ever. The
// call sweep (the periodic River job call_sweep, every quarter of --dialer-silent-after) ends
// it through the same driver code as a hang-up:
//
//   - Silent calls are asked about. A call on the line the carrier told nothing of for
//     --dialer-silent-after (2 minutes by default: many listens and resumes long, a few
//     minutes of a line at most) is asked about with CallControl.Status (Telnyx: GET
//     /calls/{id}, data.is_alive; the simulator: its own state). One the carrier no longer
//     has is ended as a hang-up with cause "lost" (an event of Betty's own, "betty:lost:<attempt>",
//     de-duplicated like the carrier's): the line is released, the attempt and the call log
//     are closed with the reason "The carrier lost this call; it was ended by Betty." (the
//     call log's endReason), the contact's status, retries and the run's end follow as after
//     any hang-up. A carrier that cannot be asked ends nothing.
//   - The maximum duration. The answer sets the attempt's ends_by: the answer plus the
//     campaign's maxCallDurationMinutes (30 by default, outside campaigns and for inbound
//     calls of a workflow outside campaigns). A call still on the line after it is hung up
//     through the carrier (the Hangup is the call's next command, sent with its own key and
//     kept in its state, so Resume sends it again after a crash); its hang-up closes the call
//     log with "The call reached its maximum duration of N minutes; it was hung up by Betty."
//     The agent says no goodbye: the engine speaks only what the flow and its own limits
//     decide, and its turns are the transcript and the recording. A call the carrier says is
//     alive past that time whose answer never reached Betty is hung up the same way, counted
//     from the dial.
//   - Billing a lost call: up to the end the carrier reports while it still does (Telnyx
//     keeps end_time 10 minutes: what the carrier billed), within the last event heard and
//     now; else up to the time of the carrier's last event of the call
//     (contact_attempts.last_event_at). Never the silent time after. Minutes round up from
//     the answer as for every call.
//
// Calls left on the line by a process that died are swept by whichever replica runs the job
// next (it runs as the queue starts).
//
// # Early speech (driver.go)
//
// The driver records an event's effect and then sends the commands it decided (an outbox:
// the call's state and its commands in one transaction, each command keyed by the attempt and
// its number, sent again with the same keys by Resume). A reply from a language model takes
// a second or more to write; waiting for all of it before the first command would leave the
// customer in silence. So on call.answered and call.heard the driver gives the engine a hook
// (conversation.Setup.SpeakNow) and sends each Say that begins the event's actions as the
// engine decides it, before the transaction: a model's first sentence while it writes the
// next (Telnyx queues speak commands sent one after another; so does the simulator). What it
// guarantees:
//
//   - The same command, the same key. The ith early Say of an event handled with the
//     attempt's command counter at n is keyed "<attempt>:<n>.<i>" (commandKey). Handling the
//     event again with the attempt unchanged (the transaction failed, the process died before
//     the commit, the carrier delivered the event twice meanwhile) sends the same keys, and
//     the carrier carries each out once (Telnyx's command_id; the simulator keeps the keys it
//     saw). A duplicate that comes after the commit is not handled at all
//     (store.CallEventSeen, asked first; call.answered: the attempt is in the call already).
//     Words a model writes differently the second time are not heard: the carrier keeps the
//     first command of a key; the transcript keeps what the committed handling decided (the
//     local back-end always decides the same).
//   - No command lost. Early keys have a form of their own, so an early Say never takes the
//     key of a command another event of the call sends (an answering machine detected while
//     the customer spoke). An event that lost such a race is handled again with the counter
//     moved: its early Says get new keys and may be heard a second time, which is the price.
//   - The state records what was said. The early Says are among the engine's actions; the
//     transaction records them as the outbox (OutboxEarly, sent again with their keys by
//     Resume when the call goes quiet) and takes their numbers from the counter, and the
//     actions after them wait (Pending) for the EventSpeakEnded of the last early Say
//     (callState.Speaking counts them down), as they wait after any Say. A short sentence
//     may end before its event is recorded (the model still writing): an end that nothing
//     waits for while the event that spoke early (marked "betty:early:<attempt>:<counter>"
//     among the events seen, before its first Say goes out) is not recorded yet is refused,
//     and the carrier delivers it again, to be counted then.
//
// Other events (a Say's end releasing the next commands, an answering machine) send their
// commands after their commit, as before.
//
// # Rules at the moment of each dial (rules.go, each a pure function)
//
//   - Concurrency: a team's calls on the line (dialling, in-doubt, ringing, in-call) stay
//     below its tier's billing.LimitConcurrentCalls (free 2, tier1 5, tier2 10, tier3 20,
//     tier4 100), a site admin's override (dialer_limits) if any, and the campaign's own
//     maxConcurrentCalls. Above it, attempts wait.
//   - Calls per second: a token bucket per caller number (default 1 CPS, Telnyx's) and one per
//     account (default 30), both configurable (--dialer-cps-per-number, --dialer-cps-account).
//   - Calling window: in the contact's time zone (set at import from the number; the
//     campaign's time zone when unknown): the campaign's callWindow (start, end, days), or
//     08:00–21:00 every day for a workflow outside campaigns. Outside it the attempt waits
//     until it opens; it is not failed. Test runs ignore it.
//   - Do-not-call: a number on the team's list is never dialled and ends suppressed.
//   - Number kind (NumberRefusal): only landlines and mobiles are dialled, plus the kinds
//     of the campaign's allowedNumberTypes for numbers the team typed (a CSV file, a test
//     run); numbers from the storefront, Zapier or HubSpot never beyond landlines and
//     mobiles. The job keeps the policy it started with (settings.numbers); any other
//     number ends refused with the reason on its contact, uncalled. Intake refuses such
//     numbers first (422, or a failed row); this catches what slipped in: older rows, an
//     opt-in withdrawn after the import.
//   - Frequency cap: the same number is dialled at most N times (default 3,
//     --dialer-frequency-cap) in 24 hours by the team, across campaigns; beyond, it waits.
//   - Spend cap: each call needs one minute's price in credits kept for it (calls on the line
//     keep theirs), within the job's budget if it has one; a batch starts no more calls than
//     that covers. When not even one is covered the job pauses with the reason and resumes by
//     itself once the balance covers a minute again. Calls are charged at hang-up (billed
//     minutes rounded up × the rate, one ledger row per attempt). Credits going negative
//     (decision): a call on the line is never cut for credits; it is finished and charged
//     for every minute it lasted, so the balance may dip below zero by at most what the
//     calls in flight cost beyond the minute kept for each. No new call starts (outbound,
//     nor inbound: answered only with a minute covered) until a top-up covers a minute again
//     (TestACallInFlightMayTakeTheBalanceBelowZero).
//
// # Why contacts wait (waiting.go)
//
// A job in progress says why its queued contacts are not dialled now (Waiting): grouped by the
// rule that holds each one, in the order the dialer checks them (a paused campaign, credits,
// the calling window, the frequency cap, a retry's delay, the free lines), with a count, the
// earliest time it lets go and its zone, and a sentence ("12 contacts wait for their calling
// window; the next opens Mon 09:00 America/Chicago (in 2 d 6 h)"). The same rules answer a run
// preview before a run starts (Preview). A paused campaign holds its jobs' contacts not dialled
// yet until it is resumed; calls on the line go on.
//
// # Progress
//
// Counted per contact from its latest attempt: queued (scheduled), dialling (dialling,
// in-doubt, ringing), inCall (in-call), completed, failed (busy, no-answer, voicemail and
// failed after the last retry, suppressed and refused) and suppressed and refused (parts of
// failed, shown apart),
// pending = total - completed - failed (cancelled contacts stay pending).
//
// # Where calls stand (activity.go)
//
// The conversation engine keeps the path of workflow nodes each call has been on
// (conversation.Result's Path and Current); the driver records it on the call log with every
// step (CallLogs.Walked, in the transaction of the step; call.updated when it changed) and
// keeps the final path at the close. StepCounts counts a run's calls per step from that: "now"
// on the step a call going on stands on, "passed" on the other steps of its path (each call
// once per step). Activity answers it for a workflow's current (else latest) run, with the
// calls still going on (and a test run's one call to its end), for the canvas to seed from
// before it follows the stream.
package runs

-- Rows loaded right after migration 00009: the fixture team's billing account, a paid credit
-- purchase with its ledger row, and the subscription paying for the fixture number.
INSERT INTO billing_accounts (organization_id, customer_id, subscription_id, subscription_status, cancel_at_period_end, trial_ends_at, trial_used, past_due_since, created_at, updated_at)
VALUES ('fixture-org-1', 'cus_fixture1', NULL, 'none', FALSE, NULL, FALSE, NULL, '2026-01-06 00:00:00+00:00', '2026-01-06 00:00:00+00:00');
INSERT INTO payment_intents (id, organization_id, created_by_user_id, kind, status, amount, currency, credits, target_tier, trial_days, phone_number, session_id, created_at, updated_at)
VALUES ('fixture-intent-1', 'fixture-org-1', 'fixture-user-1', 'credits', 'succeeded', 50, 'USD', 50, NULL, NULL, NULL, 'cs_fixture1', '2026-01-06 00:00:00+00:00', '2026-01-06 00:00:00+00:00');
INSERT INTO credit_ledger (id, organization_id, amount, reason, payment_intent_id, actor_user_id, created_at)
VALUES ('fixture-ledger-1', 'fixture-org-1', 50, 'purchase', 'fixture-intent-1', 'fixture-user-1', '2026-01-06 00:00:00+00:00');
UPDATE organizations SET credits_balance = credits_balance + 50 WHERE id = 'fixture-org-1';
INSERT INTO phone_number_subscriptions (id, organization_id, phone_number, phone_number_id, status, monthly_price, currency, subscription_id, current_period_end, cancel_at_period_end, created_at, updated_at)
VALUES ('fixture-numsub-1', 'fixture-org-1', '+14155550123', 'fixture-phone-1', 'active', 1, 'USD', 'sub_fixture1', '2026-02-03 00:00:00+00:00', FALSE, '2026-01-03 00:00:00+00:00', '2026-01-03 00:00:00+00:00');
INSERT INTO payment_events (id, type, received_at) VALUES ('evt_fixture1', 'checkout.session.completed', '2026-01-06 00:00:00+00:00');

-- Rows loaded right after migration 00006: the fixture number's carrier id and its order, a
-- verified number of the team's own with its verification, and a pending verification.
UPDATE phone_numbers SET carrier_id = 'sim-14155550123' WHERE id = 'fixture-phone-1';
INSERT INTO phone_number_orders (id, organization_id, phone_number, carrier_order_id, created_at)
VALUES ('fixture-order-1', 'fixture-org-1', '+14155550123', 'sim-order-1', '2026-01-03 00:00:00+00:00');
INSERT INTO phone_numbers (id, organization_id, phone_number, status, is_non_telnyx, country_code, number_type, area_code, monthly_price, carrier_id, verified_at, created_at, updated_at)
VALUES ('fixture-phone-2', 'fixture-org-1', '+442079460123', 'active', TRUE, 'GB', NULL, '20', NULL, NULL, '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00');
INSERT INTO phone_number_verifications (id, organization_id, phone_number, method, status, wrong_codes, expires_at, verified_at, phone_number_id, created_at, updated_at)
VALUES ('fixture-verification-1', 'fixture-org-1', '+442079460123', 'call', 'verified', 1, '2026-01-04 00:10:00+00:00', '2026-01-04 00:00:00+00:00', 'fixture-phone-2', '2026-01-04 00:00:00+00:00', '2026-01-04 00:00:00+00:00');
INSERT INTO phone_number_verifications (id, organization_id, phone_number, method, status, wrong_codes, expires_at, verified_at, phone_number_id, created_at, updated_at)
VALUES ('fixture-verification-2', 'fixture-org-1', '+16045550150', 'sms', 'pending', 0, '2026-01-05 00:10:00+00:00', NULL, NULL, '2026-01-05 00:00:00+00:00', '2026-01-05 00:00:00+00:00');

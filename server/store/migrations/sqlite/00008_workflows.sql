-- +goose Up
-- Workflows: call flows drawn on the canvas (the graph is one JSON document, rewritten whole by
-- each save under an optimistic version), the ids of their nodes (unique across workflows, and
-- how a node id finds its workflow), and the templates new workflows are copied from, seeded
-- here.
CREATE TABLE workflows (
    id                     TEXT PRIMARY KEY,
    organization_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    -- The campaign it belongs to; deleting the campaign deletes its workflows.
    campaign_id            TEXT REFERENCES campaigns (id) ON DELETE CASCADE,
    name                   TEXT NOT NULL,
    name_folded            TEXT NOT NULL,
    workflow_type          TEXT NOT NULL,
    workflow_template      TEXT,
    agent_id               TEXT REFERENCES agent_profiles (id) ON DELETE SET NULL,
    phone_number_id        TEXT REFERENCES phone_numbers (id) ON DELETE SET NULL,
    shopify_enabled        BOOLEAN NOT NULL DEFAULT FALSE,
    version                INTEGER NOT NULL,
    -- {"nodes": [...], "edges": [...]}, normalised.
    graph                  TEXT NOT NULL,
    readable_prompt_status TEXT NOT NULL,
    readable_prompt        TEXT,
    created_at             TIMESTAMP NOT NULL,
    updated_at             TIMESTAMP NOT NULL
);
CREATE INDEX workflows_org_updated_idx ON workflows (organization_id, updated_at DESC, id DESC);
CREATE INDEX workflows_campaign_created_idx ON workflows (campaign_id, created_at DESC, id DESC);
CREATE INDEX workflows_phone_idx ON workflows (phone_number_id);
CREATE INDEX workflows_agent_idx ON workflows (agent_id);
-- One storefront workflow per organisation, whatever races.
CREATE UNIQUE INDEX workflows_shopify_key ON workflows (organization_id) WHERE shopify_enabled;

CREATE TABLE workflow_nodes (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    workflow_id     TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    type            TEXT NOT NULL
);
CREATE INDEX workflow_nodes_workflow_idx ON workflow_nodes (workflow_id);

CREATE TABLE workflow_templates (
    id            TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    description   TEXT NOT NULL,
    workflow_type TEXT NOT NULL,
    -- [{"key": "companyName", "label": "Company name"}, ...]
    placeholders  TEXT NOT NULL,
    graph         TEXT NOT NULL,
    created_at    TIMESTAMP NOT NULL,
    updated_at    TIMESTAMP NOT NULL
);
CREATE INDEX workflow_templates_type_name_idx ON workflow_templates (workflow_type, name);

-- The contacts source of a Contacts node (one per node) and its contacts. import_id names the
-- current import: a new source, or clearing it, starts another, and rows of an older import
-- are never listed.
CREATE TABLE workflow_contact_sources (
    node_id          TEXT PRIMARY KEY,
    organization_id  TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    workflow_id      TEXT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    import_id        TEXT NOT NULL,
    source           TEXT NOT NULL,
    status           TEXT NOT NULL,
    upload_id        TEXT,
    file_name        TEXT,
    file_url         TEXT,
    connected_app_id TEXT,
    list_id          TEXT,
    error            TEXT,
    rows_imported    INTEGER NOT NULL DEFAULT 0,
    rows_rejected    INTEGER NOT NULL DEFAULT 0,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);
CREATE INDEX workflow_contact_sources_workflow_idx ON workflow_contact_sources (workflow_id);

CREATE TABLE workflow_contacts (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL,
    -- Contacts go with their source (and so with their workflow, campaign and team).
    node_id         TEXT NOT NULL REFERENCES workflow_contact_sources (node_id) ON DELETE CASCADE,
    import_id       TEXT NOT NULL,
    -- The row's place in its source (CSV data row number, from 1).
    seq             INTEGER NOT NULL,
    phone           TEXT NOT NULL,
    first_name      TEXT,
    last_name       TEXT,
    email           TEXT,
    lifecycle_stage TEXT,
    -- Other columns of the row, JSON; NULL when none.
    extra           TEXT,
    -- For the dialer's calling window: the number's region (ISO 3166) and time zone.
    region          TEXT,
    time_zone       TEXT,
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    call_log_id     TEXT,
    last_error      TEXT,
    last_called_at  TIMESTAMP,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX workflow_contacts_node_idx ON workflow_contacts (node_id, import_id, seq);

INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-customer-support', 'Customer support', 'Answers support calls for {{companyName}}: greets the caller, helps with the three most common issues and takes a message for anything else.', 'inbound', '[{"key":"companyName","label":"Company name"},{"key":"supportEmail","label":"Support e-mail"},{"key":"operatingHours","label":"Operating hours"},{"key":"businessAddress","label":"Business address"},{"key":"commonIssue1","label":"Common issue 1"},{"key":"commonIssue2","label":"Common issue 2"},{"key":"commonIssue3","label":"Common issue 3"}]', '{"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"greet","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Greet the caller","instruction":"Thank the caller for calling {{companyName}} support, say your name, and ask how you can help today. Our support hours are {{operatingHours}}."},"flow_meta":{}},{"id":"topic","type":"conditional-path","position":{"x":0,"y":-800},"data":{"nodeLabel":"What do they need?"},"flow_meta":{}},{"id":"says-issue1","type":"customer-response","position":{"x":-750.0,"y":-1200},"data":{"nodeLabel":"{{commonIssue1}}","description":"{{commonIssue1}}"},"flow_meta":{}},{"id":"help-issue1","type":"agent","position":{"x":-750.0,"y":-1600},"data":{"nodeLabel":"Help","instruction":"Help the caller with {{commonIssue1}}: ask for the details you need, walk them through the fix step by step, and check it worked."},"flow_meta":{}},{"id":"end-issue1","type":"end-call","position":{"x":-750.0,"y":-2000},"data":{"nodeLabel":"Thank and end the call"},"flow_meta":{}},{"id":"says-issue2","type":"customer-response","position":{"x":-250.0,"y":-1200},"data":{"nodeLabel":"{{commonIssue2}}","description":"{{commonIssue2}}"},"flow_meta":{}},{"id":"help-issue2","type":"agent","position":{"x":-250.0,"y":-1600},"data":{"nodeLabel":"Help","instruction":"Help the caller with {{commonIssue2}}: ask for the details you need, walk them through the fix step by step, and check it worked."},"flow_meta":{}},{"id":"end-issue2","type":"end-call","position":{"x":-250.0,"y":-2000},"data":{"nodeLabel":"Thank and end the call"},"flow_meta":{}},{"id":"says-issue3","type":"customer-response","position":{"x":250.0,"y":-1200},"data":{"nodeLabel":"{{commonIssue3}}","description":"{{commonIssue3}}"},"flow_meta":{}},{"id":"help-issue3","type":"agent","position":{"x":250.0,"y":-1600},"data":{"nodeLabel":"Help","instruction":"Help the caller with {{commonIssue3}}: ask for the details you need, walk them through the fix step by step, and check it worked."},"flow_meta":{}},{"id":"end-issue3","type":"end-call","position":{"x":250.0,"y":-2000},"data":{"nodeLabel":"Thank and end the call"},"flow_meta":{}},{"id":"says-other","type":"customer-response","position":{"x":750.0,"y":-1200},"data":{"nodeLabel":"Something else, or asks for a person","description":"Something else, or asks for a person"},"flow_meta":{}},{"id":"help-other","type":"agent","position":{"x":750.0,"y":-1600},"data":{"nodeLabel":"Take a message","instruction":"Tell the caller you will pass their request on: they can also write to {{supportEmail}}, or visit us at {{businessAddress}} during {{operatingHours}}. Take their name and a short description of the problem."},"flow_meta":{}},{"id":"end-other","type":"end-call","position":{"x":750.0,"y":-2000},"data":{"nodeLabel":"Thank and end the call"},"flow_meta":{}}],"edges":[{"id":"start-greet","source":"start","target":"greet","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"greet-topic","source":"greet","target":"topic","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"topic-says-issue1","source":"topic","target":"says-issue1","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"says-issue1-help-issue1","source":"says-issue1","target":"help-issue1","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"help-issue1-end-issue1","source":"help-issue1","target":"end-issue1","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"topic-says-issue2","source":"topic","target":"says-issue2","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"says-issue2-help-issue2","source":"says-issue2","target":"help-issue2","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"help-issue2-end-issue2","source":"help-issue2","target":"end-issue2","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"topic-says-issue3","source":"topic","target":"says-issue3","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"says-issue3-help-issue3","source":"says-issue3","target":"help-issue3","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"help-issue3-end-issue3","source":"help-issue3","target":"end-issue3","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"topic-says-other","source":"topic","target":"says-other","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"says-other-help-other","source":"says-other","target":"help-other","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"help-other-end-other","source":"help-other","target":"end-other","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-appointment-reminder', 'Appointment reminder', 'Calls each contact to confirm an upcoming appointment and collects a better time when they cannot come.', 'outbound', '[]', '{"nodes":[{"id":"contacts","type":"contacts","position":{"x":0,"y":400},"data":{},"flow_meta":{}},{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"remind","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Remind","instruction":"Greet {{firstName}}, say you are calling about their upcoming appointment, and ask whether they can still make it."},"flow_meta":{}},{"id":"answer","type":"conditional-path","position":{"x":0,"y":-800},"data":{"nodeLabel":"Can they make it?"},"flow_meta":{}},{"id":"yes","type":"customer-response","position":{"x":-250,"y":-1200},"data":{"nodeLabel":"Confirms","description":"Confirms they will come"},"flow_meta":{}},{"id":"thanks","type":"agent","position":{"x":-250,"y":-1600},"data":{"nodeLabel":"Thank","instruction":"Thank them and remind them to arrive ten minutes early."},"flow_meta":{}},{"id":"end-yes","type":"end-call","position":{"x":-250,"y":-2000},"data":{},"flow_meta":{}},{"id":"no","type":"customer-response","position":{"x":250,"y":-1200},"data":{"nodeLabel":"Cannot come","description":"Cannot come or wants another time"},"flow_meta":{}},{"id":"resched","type":"agent","position":{"x":250,"y":-1600},"data":{"nodeLabel":"Reschedule","instruction":"Ask which day and time suits them better and say the office will confirm the new time."},"flow_meta":{}},{"id":"end-no","type":"end-call","position":{"x":250,"y":-2000},"data":{},"flow_meta":{}}],"edges":[{"id":"start-remind","source":"start","target":"remind","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"remind-answer","source":"remind","target":"answer","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"answer-yes","source":"answer","target":"yes","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"yes-thanks","source":"yes","target":"thanks","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"thanks-end-yes","source":"thanks","target":"end-yes","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"answer-no","source":"answer","target":"no","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"no-resched","source":"no","target":"resched","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"resched-end-no","source":"resched","target":"end-no","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:01+00:00', '2026-01-01 00:00:01+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-lead-qualification', 'Lead qualification', 'Qualifies each lead, marks interested ones as sales leads in HubSpot and books a demo.', 'outbound', '[]', '{"nodes":[{"id":"contacts","type":"contacts","position":{"x":0,"y":400},"data":{},"flow_meta":{}},{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"intro","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Introduce","instruction":"Introduce yourself, say why you are calling, and ask whether they are looking for a solution like ours this quarter."},"flow_meta":{}},{"id":"interest","type":"conditional-path","position":{"x":0,"y":-800},"data":{"nodeLabel":"Interested?"},"flow_meta":{}},{"id":"hot","type":"customer-response","position":{"x":-250,"y":-1200},"data":{"nodeLabel":"Interested","description":"Interested, or asks for a price or a demo"},"flow_meta":{}},{"id":"stage","type":"hubspot-lifecycle-stage","position":{"x":-250,"y":-1600},"data":{"nodeLabel":"Mark as sales lead","lifeCycleStage":"sales lead"},"flow_meta":{}},{"id":"book","type":"agent","position":{"x":-250,"y":-2000},"data":{"nodeLabel":"Book a demo","instruction":"Ask for a good day and time for a 20-minute demo and confirm their e-mail address."},"flow_meta":{}},{"id":"end-hot","type":"end-call","position":{"x":-250,"y":-2400},"data":{},"flow_meta":{}},{"id":"cold","type":"customer-response","position":{"x":250,"y":-1200},"data":{"nodeLabel":"Not interested","description":"Not interested or not the right person"},"flow_meta":{}},{"id":"bye","type":"agent","position":{"x":250,"y":-1600},"data":{"nodeLabel":"Close politely","instruction":"Thank them for their time and wish them a good day."},"flow_meta":{}},{"id":"end-cold","type":"end-call","position":{"x":250,"y":-2000},"data":{},"flow_meta":{}}],"edges":[{"id":"start-intro","source":"start","target":"intro","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"intro-interest","source":"intro","target":"interest","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"interest-hot","source":"interest","target":"hot","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"hot-stage","source":"hot","target":"stage","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"stage-book","source":"stage","target":"book","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"book-end-hot","source":"book","target":"end-hot","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"interest-cold","source":"interest","target":"cold","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"cold-bye","source":"cold","target":"bye","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"bye-end-cold","source":"bye","target":"end-cold","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:02+00:00', '2026-01-01 00:00:02+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-feedback', 'Feedback collection', 'Asks each customer for a satisfaction score and sends the answer to a webhook.', 'outbound', '[]', '{"nodes":[{"id":"contacts","type":"contacts","position":{"x":0,"y":400},"data":{},"flow_meta":{}},{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"ask","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Ask for feedback","instruction":"Greet {{firstName}}, thank them for their recent purchase, and ask how satisfied they are on a scale from 1 to 5 and why."},"flow_meta":{}},{"id":"record","type":"webhook","position":{"x":0,"y":-800},"data":{"nodeLabel":"Record the answer","webhookUrl":"https://example.com/feedback","webhookMethod":"POST","webhookData":{"params":{},"headers":{},"body":{"phone":"{{phone}}"}}},"flow_meta":{}},{"id":"thanks","type":"agent","position":{"x":0,"y":-1200},"data":{"nodeLabel":"Thank","instruction":"Thank them for the feedback."},"flow_meta":{}},{"id":"end","type":"end-call","position":{"x":0,"y":-1600},"data":{},"flow_meta":{}}],"edges":[{"id":"start-ask","source":"start","target":"ask","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"ask-record","source":"ask","target":"record","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"record-thanks","source":"record","target":"thanks","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"thanks-end","source":"thanks","target":"end","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:03+00:00', '2026-01-01 00:00:03+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-order-update', 'Order update', 'Calls each customer with the status of their order.', 'outbound', '[]', '{"nodes":[{"id":"contacts","type":"contacts","position":{"x":0,"y":400},"data":{},"flow_meta":{}},{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"lookup","type":"data-access","position":{"x":0,"y":-400},"data":{"nodeLabel":"Look up the order"},"flow_meta":{}},{"id":"tell","type":"agent","position":{"x":0,"y":-800},"data":{"nodeLabel":"Give the update","instruction":"Tell {{firstName}} the status of their order and the expected delivery date, and ask whether they have questions."},"flow_meta":{}},{"id":"end","type":"end-call","position":{"x":0,"y":-1200},"data":{},"flow_meta":{}}],"edges":[{"id":"start-lookup","source":"start","target":"lookup","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"lookup-tell","source":"lookup","target":"tell","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"tell-end","source":"tell","target":"end","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:04+00:00', '2026-01-01 00:00:04+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-after-hours', 'After-hours receptionist', 'Answers calls when the office is closed: forwards urgent ones to an on-call number (add it) and takes a message otherwise.', 'inbound', '[]', '{"nodes":[{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"greet","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Greet","instruction":"Say the office is closed, and ask whether the call is urgent."},"flow_meta":{}},{"id":"urgent","type":"conditional-path","position":{"x":0,"y":-800},"data":{"nodeLabel":"Urgent?"},"flow_meta":{}},{"id":"yes","type":"customer-response","position":{"x":-250,"y":-1200},"data":{"nodeLabel":"Urgent","description":"Says it is urgent"},"flow_meta":{}},{"id":"forward","type":"forward-call","position":{"x":-250,"y":-1600},"data":{"nodeLabel":"On-call line"},"flow_meta":{}},{"id":"no","type":"customer-response","position":{"x":250,"y":-1200},"data":{"nodeLabel":"Can wait","description":"It can wait until tomorrow"},"flow_meta":{}},{"id":"msg","type":"agent","position":{"x":250,"y":-1600},"data":{"nodeLabel":"Take a message","instruction":"Take their name, number and a short message, and say someone will call back during opening hours."},"flow_meta":{}},{"id":"end","type":"end-call","position":{"x":250,"y":-2000},"data":{},"flow_meta":{}}],"edges":[{"id":"start-greet","source":"start","target":"greet","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"greet-urgent","source":"greet","target":"urgent","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"urgent-yes","source":"urgent","target":"yes","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"yes-forward","source":"yes","target":"forward","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"urgent-no","source":"urgent","target":"no","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"no-msg","source":"no","target":"msg","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"msg-end","source":"msg","target":"end","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:05+00:00', '2026-01-01 00:00:05+00:00');
INSERT INTO workflow_templates (id, name, description, workflow_type, placeholders, graph, created_at, updated_at)
VALUES ('template-booking-confirmation', 'Booking confirmation', 'Calls each customer to confirm their booking.', 'outbound', '[]', '{"nodes":[{"id":"contacts","type":"contacts","position":{"x":0,"y":400},"data":{},"flow_meta":{}},{"id":"start","type":"start","position":{"x":0,"y":0},"data":{},"flow_meta":{}},{"id":"confirm","type":"agent","position":{"x":0,"y":-400},"data":{"nodeLabel":"Confirm the booking","instruction":"Greet {{firstName}}, read back the booking details and ask them to confirm."},"flow_meta":{}},{"id":"end","type":"end-call","position":{"x":0,"y":-800},"data":{},"flow_meta":{}}],"edges":[{"id":"start-confirm","source":"start","target":"confirm","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}},{"id":"confirm-end","source":"confirm","target":"end","sourceHandle":null,"targetHandle":null,"type":"add-step","edge_meta":{}}]}', '2026-01-01 00:00:06+00:00', '2026-01-01 00:00:06+00:00');

-- +goose Down
DROP TABLE workflow_contacts;
DROP TABLE workflow_contact_sources;
DROP TABLE workflow_templates;
DROP TABLE workflow_nodes;
DROP TABLE workflows;

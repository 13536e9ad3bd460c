import type { NodeTypes } from '@xyflow/react';

import type { Kind } from '../../graph';
import { agentNode } from './agent';
import { conditionalPathNode } from './conditional-path';
import { contactsNode } from './contacts';
import { customerResponseNode } from './customer-response';
import { dataAccessNode } from './data-access';
import { endCallNode } from './end-call';
import { forwardCallNode } from './forward-call';
import { invisibleNode } from './invisible';
import { lifecycleStageNode } from './lifecycle-stage';
import { makeNodeComponent } from './NodeShell';
import { startNode } from './start';
import type { NodeKindSpec } from './types';
import { webhookNode } from './webhook';

export const NODE_KINDS: Record<Kind, NodeKindSpec> = {
  start: startNode,
  agent: agentNode,
  'customer-response': customerResponseNode,
  'end-call': endCallNode,
  'data-access': dataAccessNode,
  'forward-call': forwardCallNode,
  'hubspot-lifecycle-stage': lifecycleStageNode,
  webhook: webhookNode,
  invisible: invisibleNode,
  'conditional-path': conditionalPathNode,
  contacts: contactsNode,
};

export function specOf(kind: string): NodeKindSpec {
  return NODE_KINDS[kind as Kind] ?? agentNode;
}

/** At module scope, so React Flow never sees a new object and never remounts every node. */
export const nodeTypes: NodeTypes = Object.fromEntries(Object.values(NODE_KINDS).map((spec) => [spec.kind, makeNodeComponent(spec)]));

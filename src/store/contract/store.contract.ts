/**
 * The store contract suite: one set of behaviours every `MemoryStore` backend must pass, on a real
 * database. Never run directly (vitest does not match `*.contract.ts`); each backend's test file calls
 * `describeStoreContract` with its own opener and probes.
 */
import { describe } from 'vitest';

import { createHarness, type StoreContractOptions } from './contract-harness.js';
import { describeAnchorsContract } from './store.anchors.contract.js';
import { describeBrowseContract } from './store.browse.contract.js';
import { describeContextContract } from './store.context.contract.js';
import { describeCrudContract } from './store.crud.contract.js';
import { describeHistoryContract } from './store.history.contract.js';
import { describeInjectionsContract } from './store.injections.contract.js';
import { describeIntegrityContract } from './store.integrity.contract.js';
import { describeLedgerAuthorsContract } from './store.ledger-authors.contract.js';
import { describeProvenanceContract } from './store.provenance.contract.js';
import { describeReviewContract } from './store.review.contract.js';
import { describeSearchContract } from './store.search.contract.js';
import { describeSessionsContract } from './store.sessions.contract.js';
import { describeTeamsContract } from './store.teams.contract.js';
import { describeTermsContract } from './store.terms.contract.js';

export type {
  ChildOpener,
  ContractOpenOptions,
  SharedStoreTarget,
  StoreContractOptions,
  StoreInspection,
} from './contract-harness.js';

/** Registers the whole contract for one backend. */
export function describeStoreContract(options: StoreContractOptions): void {
  describe(`${options.name} store contract`, () => {
    const harness = createHarness(options);
    describeCrudContract(harness);
    describeSearchContract(harness);
    describeContextContract(harness);
    describeTermsContract(harness);
    describeIntegrityContract(harness);
    describeReviewContract(harness);
    describeSessionsContract(harness);
    describeInjectionsContract(harness);
    describeAnchorsContract(harness);
    describeTeamsContract(harness);
    describeLedgerAuthorsContract(harness);
    describeHistoryContract(harness);
    describeBrowseContract(harness);
    describeProvenanceContract(harness);
  });
}

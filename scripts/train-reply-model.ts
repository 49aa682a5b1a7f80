// Trains the statistical reader of lender replies (src/features/inbound/reply-model.ts) from the
// labelled corpus (contract-tests/fixtures/replies), leaving out every batch not yet scored blind
// (BLIND_SETS in evaluate.ts), and writes src/features/inbound/reply-model.json. Deterministic: the
// same corpus gives the same bytes (contract-tests/unit/reply-model.test.ts checks the shipped file).
//
//   npx tsx scripts/train-reply-model.ts           write the model
//   npx tsx scripts/train-reply-model.ts --check   exit 1 when the shipped model is not what this trains
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { modelDocs, trainFrom } from '../contract-tests/fixtures/replies/model-data';
import { serializeModel } from '../src/features/inbound/reply-model';

const out = fileURLToPath(new URL('../src/features/inbound/reply-model.json', import.meta.url));
const model = trainFrom(await modelDocs());
const text = serializeModel(model);
if (process.argv.includes('--check')) {
  const same = readFileSync(out, 'utf8') === text;
  console.log(same ? 'reply-model.json is what the corpus trains' : 'reply-model.json is stale: run npx tsx scripts/train-reply-model.ts');
  process.exit(same ? 0 : 1);
}
writeFileSync(out, text);
console.log(`reply-model.json: ${Object.keys(model.features).length} features from ${model.docs.reduce((a, b) => a + b, 0)} replies (${model.sets.join(', ')}), ${text.length} bytes`);

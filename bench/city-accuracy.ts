// Prints the accuracy figures of the labelled city sets (README "City matching"), and with
// --verbose every decision that is not right: `node --import tsx bench/city-accuracy.ts [--verbose]`.
import { breakdown, evaluate, percent, readLabelledSet } from './city-eval.ts';

const verbose = process.argv.includes('--verbose');
for (const name of ['eval.csv', 'holdout.csv', 'messy.csv', 'holdout2.csv', 'holdout3.csv']) {
  const { figures: f, outcomes } = evaluate(readLabelledSet(name));
  console.log(`\n${name}: ${f.rows} rows, ${f.unique} with a unique right answer, ${f.reviewRows} that need review`);
  console.log(`  confident and right   ${f.confidentRight}/${f.unique} = ${percent(f.confidentRate)}`);
  console.log(`  confident and wrong   ${f.confidentWrong}`);
  console.log(`  review rows kept      ${f.reviewRowsKept}/${f.reviewRows}`);
  for (const line of breakdown(outcomes, (o) => o.row.country)) console.log(`  ${line}`);
  for (const line of breakdown(outcomes, (o) => o.row.category)) console.log(`  ${line}`);
  if (verbose)
    for (const o of outcomes.filter((x) => x.verdict === 'wrong' || x.verdict === 'missed'))
      console.log(
        `  ${o.verdict.toUpperCase().padEnd(6)} ${o.row.country} line ${o.row.line} [${o.row.category}] "${o.row.departamento}" / "${o.row.ciudad}" → ${o.decision.confident ? `${o.decision.city} (${o.decision.region}) ${o.decision.method} ${o.decision.score}` : `review: ${o.decision.reason}${o.decision.candidates ? ` [${o.decision.candidates.map((c) => c.city).join(', ')}]` : ''}`}${o.row.expected ? `  expected ${o.row.expected.city} (${o.row.expected.region})` : '  expected review'}`,
      );
}

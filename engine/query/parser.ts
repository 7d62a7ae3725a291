// Grammar for filter parameter names:
//   key := CfPrefix? Name ( DoubleUnderscore Name )?
// Built once at module load (performSelfAnalysis costs milliseconds) and reused
// for every key by assigning `parser.input`; parsing is synchronous, so sharing
// one instance is safe.
import { CstParser } from 'chevrotain';
import { CfPrefix, DoubleUnderscore, Name, keyTokens } from './tokens.js';

export class FilterKeyParser extends CstParser {
  constructor() {
    // No error recovery: a malformed key is rejected, never repaired.
    super(keyTokens, { recoveryEnabled: false, maxLookahead: 1 });
    this.performSelfAnalysis();
  }

  public key = this.RULE('key', () => {
    this.OPTION(() => this.CONSUME(CfPrefix));
    this.CONSUME(Name, { LABEL: 'field' });
    this.OPTION2(() => {
      this.CONSUME(DoubleUnderscore);
      this.CONSUME2(Name, { LABEL: 'lookup' });
    });
  });
}

export const keyParser = new FilterKeyParser();

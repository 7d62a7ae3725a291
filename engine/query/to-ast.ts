// CST -> key parts. The visitor is validated against the grammar at load time
// so a rule added to the parser without a visit method fails immediately.
import type { CstNode, IToken } from 'chevrotain';
import { keyParser } from './parser.js';

export interface ParsedKey {
  readonly field: string;
  readonly cf: boolean;
  readonly lookup: string | null;
}

// Shape of the `key` rule's CST children (labels from parser.ts).
interface KeyCtx {
  CfPrefix?: IToken[];
  field: IToken[];
  DoubleUnderscore?: IToken[];
  lookup?: IToken[];
}

const BaseVisitor = keyParser.getBaseCstVisitorConstructor<void, ParsedKey>();

class KeyToAstVisitor extends BaseVisitor {
  constructor() {
    super();
    this.validateVisitor();
  }

  key(ctx: KeyCtx): ParsedKey {
    return {
      field: ctx.field[0]!.image,
      cf: ctx.CfPrefix !== undefined,
      lookup: ctx.lookup ? ctx.lookup[0]!.image : null,
    };
  }
}

const visitor = new KeyToAstVisitor();

export function keyCstToAst(cst: CstNode): ParsedKey {
  return visitor.visit(cst) as ParsedKey;
}

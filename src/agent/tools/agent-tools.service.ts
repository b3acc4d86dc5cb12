import { Injectable } from '@nestjs/common';
import { AccessContext, ApiDocument } from '../../common';
import { Env, isProduction } from '../../config';
import { SELF_PERMISSIONS } from '../../organizations';
import { TOOLS, ToolDefinition, ToolKind } from './tool-catalogue';
import { InputSchema, inputSchemaOf } from './tool-schemas';

/** A tool as `GET .../agent/tools` lists it and the model is offered it. */
export interface OfferedTool {
  name: string;
  description: string;
  kind: ToolKind;
  permission: string;
  requiresConfirmation: boolean;
  /** The caller's role may use it and the app serves its route. */
  allowed: boolean;
  inputSchema: InputSchema | null;
}

/** The catalogue for one caller in one organization. */
@Injectable()
export class AgentTools {
  /** Each tool's input schema (null: route not served), read once from the process's document. */
  private schemas?: Promise<Map<string, InputSchema | null>>;

  constructor(
    private readonly document: ApiDocument,
    private readonly env: Env,
  ) {}

  async forCaller(access: AccessContext): Promise<OfferedTool[]> {
    const schemas = await (this.schemas ??= this.readSchemas());
    return TOOLS.map((tool) => {
      const inputSchema = schemas.get(tool.name) ?? null;
      return {
        name: tool.name,
        description: tool.description,
        kind: tool.kind,
        permission: tool.permission,
        requiresConfirmation: this.requiresConfirmation(tool),
        allowed: inputSchema !== null && this.served(access, tool) && mayUse(access, tool),
        inputSchema,
      };
    });
  }

  private async readSchemas(): Promise<Map<string, InputSchema | null>> {
    const doc = await this.document.get();
    return new Map(TOOLS.map((tool) => [tool.name, inputSchemaOf(doc, tool) || null]));
  }

  /** A document-store tool follows the organization's store: none in production without the suite. */
  private served(access: AccessContext, tool: Pick<ToolDefinition, 'documentStore'>): boolean {
    if (!tool.documentStore || !isProduction(this.env)) return true;
    return access.organization?.documentStore === 'suite';
  }

  /** Destructive tools always wait for a person; writes unless AGENT_CONFIRM_WRITE_OPERATIONS=false. */
  requiresConfirmation(tool: Pick<ToolDefinition, 'kind'>): boolean {
    if (tool.kind === 'destructive') return true;
    return tool.kind === 'write' && this.env.AGENT_CONFIRM_WRITE_OPERATIONS !== false;
  }
}

/**
 * Whether the caller's role grants the tool's permission. "…OrSelf" reads are everyone's: their
 * routes answer only the caller's own records without the role permission.
 */
export const mayUse = (access: AccessContext, tool: Pick<ToolDefinition, 'permission'>) =>
  access.permissions.has(tool.permission) || SELF_PERMISSIONS.has(tool.permission);

/**
 * The system instructions a completion starts with, in the completion's
 * language (`de` default, `en`): answer language, citation rule, the tools
 * offered (only those), the agent's own instructions, and the selected parts of attached
 * files as numbered sources.
 */
import type { Language, Source } from './types.ts';
import type { ToolName } from './tools.ts';

const TEXT = {
  de: {
    role: 'Du bist der Assistent der Unternehmenssuche. Antworte auf Deutsch.',
    cite: 'Stütze Aussagen auf die gegebenen Quellen (angehängte Dateien, Werkzeugergebnisse) und belege jede mit ihrer Nummer in eckigen Klammern, z. B. [1]. Wenn die Quellen die Frage nicht beantworten, sage das.',
    tools: 'Du kannst diese Werkzeuge aufrufen:',
    tool: {
      serviceSearch: 'serviceSearch durchsucht die internen Dokumente',
      webSearch: 'webSearch durchsucht das öffentliche Web',
    },
    noTools: 'Du hast keinen Zugriff auf Suchwerkzeuge; antworte aus deinem Wissen und den angehängten Dateien.',
    agent: 'Anweisungen dieses Agenten:',
    files: 'Angehängte Dateien (Auszüge, als Quellen nummeriert):',
  },
  en: {
    role: 'You are the assistant of the enterprise search. Answer in English.',
    cite: 'Base statements on the sources you are given (attached files, tool results) and cite each with its number in square brackets, e.g. [1]. If the sources do not answer the question, say so.',
    tools: 'You can call these tools:',
    tool: {
      serviceSearch: 'serviceSearch searches the internal documents',
      webSearch: 'webSearch searches the public web',
    },
    noTools: 'You have no search tools; answer from your own knowledge and the attached files.',
    agent: 'Instructions of this agent:',
    files: 'Attached files (excerpts, numbered as sources):',
  },
} as const;

export interface PromptInput {
  language: Language;
  tools: readonly ToolName[];
  agentInstructions?: string;
  files: readonly Source[];
}

export function systemPrompt(input: PromptInput): string {
  const t = TEXT[input.language];
  const tools = `${t.tools} ${input.tools.map((name) => t.tool[name]).join('; ')}.`;
  const parts: string[] = [t.role, t.cite, input.tools.length > 0 ? tools : t.noTools];
  if (input.agentInstructions?.trim()) parts.push(`${t.agent}\n${input.agentInstructions.trim()}`);
  if (input.files.length > 0) {
    parts.push(`${t.files}\n\n${input.files.map((f) => `[${f.key}] ${f.title}\n${f.text}`).join('\n\n')}`);
  }
  return parts.join('\n\n');
}

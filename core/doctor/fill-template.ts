// Fills {name} placeholders of remedy texts and commands; unknown names stay visible as {name}.

export type TemplateVars = Partial<Record<'base_url' | 'proxy_url' | 'token_var' | 'base_var', string>>;

export function fillTemplate(text: string, vars: TemplateVars): string {
  return text.replace(/\{(base_url|proxy_url|token_var|base_var)\}/g, (whole, name: keyof TemplateVars) => vars[name] ?? whole);
}

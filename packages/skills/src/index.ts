// Public API of @anna-ai/skills: SKILL.md parse/validate/index/render. Never executes skill content.
export { discoverSkillFiles, MAX_DISCOVERY_DEPTH, SKILL_FILE_NAME } from "./discover.js";
export {
  type CheckedFrontmatter,
  checkFrontmatter,
  METADATA_NAMESPACES,
  SKILL_NAME_PATTERN,
} from "./frontmatter-checks.js";
export { hostSkillOs, isAvailableOn } from "./host-os.js";
export {
  formatSkillIssue,
  IssueSink,
  type SkillIssue,
  type SkillIssueSeverity,
  toPointer,
} from "./issues.js";
export { parseSkillFile, type ParseSkillOptions, type ParseSkillResult } from "./parse-skill.js";
export {
  escapeXml,
  PYTHON_MODE_SECTION,
  renderAvailableSkillsBlock,
  renderPythonModeSection,
} from "./render-prompt.js";
export {
  EXECUTION_MODE_HINTS,
  renderDependencies,
  renderHint,
  renderSkillContent,
  renderSkillTool,
  type SkillTool,
  skillToolName,
} from "./render-tool.js";
export {
  checkRequirements,
  findOnPath,
  type LookOptions,
  RECIPE_INSTALLERS,
  type RecipeSelectOptions,
  type RequirementsCheck,
  selectRecipe,
} from "./requirements.js";
export {
  type BundledDirSources,
  resolveBundledSkillsDir,
  SKILLS_DIR_ENV,
  workspaceSkillsDir,
} from "./resolve-bundled-dir.js";
export type { Skill, SkillSummary } from "./skill.js";
export {
  type IndexedSkill,
  SkillIndex,
  type SkillIndexChanges,
  type SkillIndexOptions,
  SkillLoadError,
  type SkillSource,
} from "./skill-index.js";
export {
  EXECUTION_MODES,
  type ExecutionMode,
  INSTALL_KINDS,
  type RecipeKind,
  REQUIRES_KEYS,
  type SkillFrontmatter,
  type SkillMetadata,
  type SkillOs,
  SKILL_OSES,
  type SkillRecipe,
  type SkillRequires,
  UNINSTALL_KINDS,
} from "./types.js";
export {
  referencedPaths,
  type SkillDirValidation,
  validateSkillDir,
} from "./validate-skill-dir.js";

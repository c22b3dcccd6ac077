// The wire shapes the dashboard reads, as Nexus's views write them (http/views.ts,
// store/catalogue.ts, store/my-apps.ts, apps/app-views.ts, apps/review-view.ts). Only the fields
// the pages use are typed; the server stays the source of truth.

export interface Me {
  id: number;
  email: string;
  is_admin: boolean;
  is_verified: boolean;
  is_verified_developer: boolean;
  developer_state: string;
  developer_handle: string | null;
  auth: "session" | "pat";
}

export interface StoreListing {
  id: number;
  slug: string;
  handle: string | null;
  ref: string;
  name: string;
  tagline: string | null;
  category: string | null;
  logo_url: string | null;
  install_count: number;
  latest_version: string | null;
  updated_at: string;
}

export interface StorePage {
  items: StoreListing[];
  next_cursor: string | null;
}

export interface CategoryCount {
  category: string;
  count: number;
}

export interface BundledTool {
  tool_id: string;
  name: string | null;
  description: string | null;
  executa_type: string | null;
  required: boolean;
  version: string | null;
  available: boolean;
}

export interface AppDetail extends StoreListing {
  status: string;
  listed: boolean;
  installable: boolean;
  description: string | null;
  cover_url: string | null;
  screenshots: string[];
  homepage_url: string | null;
  support_url: string | null;
  privacy_url: string | null;
  versions: {
    id: number;
    version: string;
    changelog: string | null;
    published_at: string | null;
    is_latest: boolean;
  }[];
  bundled_tools: BundledTool[];
  requested: {
    host_api: Record<string, unknown>;
    permissions: unknown[];
    host_capabilities: unknown[];
  };
  viewer: {
    installed: boolean;
    installed_version: string | null;
    enabled: boolean | null;
    update_available: boolean;
    owner: boolean;
  };
}

export interface MyApp {
  id: number;
  slug: string;
  handle: string | null;
  name: string;
  tagline: string | null;
  logo_url: string | null;
  status: string;
  installed_version: string;
  latest_version: string | null;
  update_available: boolean;
  enabled: boolean;
  auto_update: boolean;
  installed_at: string;
}

/** `GET /me/executas`: an executa the person has, installed by them or by an app. */
export interface MyExecuta {
  tool_id: string;
  name: string;
  version: string | null;
  source: string;
  source_app: string | null;
  enabled: boolean;
}

/** `GET /me/executas/{tool_id}/credentials`: declared fields and which are set (never a value). */
export interface ExecutaCredentials {
  tool_id: string;
  complete: boolean;
  credentials: {
    name: string;
    display_name: string;
    description: string | null;
    required: boolean;
    sensitive: boolean;
    default: string | null;
    is_set: boolean;
    updated_at: string | null;
  }[];
}

export interface DevToken {
  id: number;
  label: string | null;
  scopes: string[];
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface DeveloperApp {
  id: number;
  slug: string;
  name: string;
  status: string;
  latest_version: string | null;
  review_message: string | null;
  reviewed_at: string | null;
  updated_at: string;
}

export interface DeveloperVersion {
  id: number;
  version: string;
  is_latest: boolean;
  published_at: string | null;
  release_review_state: string | null;
}

export interface ReviewQueueItem {
  review_id: number;
  app_id: number;
  slug: string;
  handle: string | null;
  name: string;
  status: string;
  version: string | null;
  submitted_at: string;
}

export interface ReviewQueuePage {
  items: ReviewQueueItem[];
  total: number;
}

/** `GET /super-admin/apps/release-queue`: new versions of live apps waiting for release review. */
export interface ReleaseQueueItem {
  app_id: number;
  slug: string;
  name: string;
  app_status: string;
  version_id: number;
  version: string;
  changelog: string | null;
  requested_at: string | null;
  live_version: string | null;
  manifest_diff: { added: unknown[]; removed: unknown[]; changed: unknown[] };
}

export interface ReleaseQueuePage {
  items: ReleaseQueueItem[];
  total: number;
}

// The chat (nexus/src/routes/chat.ts, chat/message-rows.ts).

export interface ChatConversation {
  id: string;
  title: string | null;
  created_at: string;
  updated_at: string;
}

/** A file attached to a conversation (nexus/src/chat/chat-attachments.ts). */
export interface ChatAttachment {
  id: string;
  name: string;
  media_type: string;
  size_bytes: number;
}

export type ChatMessage =
  | {
      seq: number;
      turn_id: string;
      role: "user";
      text: string;
      /** The files sent with the message (absent from servers before attachments). */
      attachments?: ChatAttachment[];
    }
  | {
      seq: number;
      turn_id: string;
      role: "assistant";
      text: string;
      tool_calls: { id: string; name: string; input: unknown }[];
    }
  | {
      seq: number;
      turn_id: string;
      role: "tool";
      tool_call_id: string;
      tool_name: string;
      output: unknown;
      is_error: boolean;
    };

/** How a turn ended (or that it runs), as the conversation lists its turns. */
export interface TurnInfo {
  turn_id: string;
  status: "running" | "completed" | "cancelled" | "failed" | "step_limit";
  error: { code: string; message: string } | null;
}

export interface ConversationDetail extends ChatConversation {
  running_turn_id: string | null;
  messages: ChatMessage[];
  /** The turns of these messages, oldest first. */
  turns: TurnInfo[];
  next_after: number | null;
}

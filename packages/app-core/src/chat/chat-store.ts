// Where `chat.append_artifact` and `chat.write_message` records live (R116–R118), for the agent
// runtime to read later. Records are plain JSON (no closures), tagged with their user and app so
// one store serves every tenant; in memory now, the server brings a database one.

export interface ChatArtifact {
  artifact_id: string;
  kind: string;
  app_slug?: string;
  summary?: string;
  payload_ref?: unknown;
  data?: unknown;
  window_uuid: string;
  user_id: string;
  /** The app whose window wrote it; never sent on the event (its envelope has `app_id`). */
  app_id: string;
  ts: number;
}

export interface ChatMessage {
  message_id: string;
  role: string;
  content: string;
  window_uuid: string;
  user_id: string;
  app_id: string;
  ts: number;
}

/** Which records to read: always one user's; optionally one app's or one window's. */
export interface ChatFilter {
  userId: string;
  appId?: string;
  windowUuid?: string;
}

/** Async so a database fits; implementations store and return copies. */
export interface ChatStore {
  appendArtifact(artifact: ChatArtifact): Promise<void>;
  appendMessage(message: ChatMessage): Promise<void>;
  /** In the order written. */
  listArtifacts(filter: ChatFilter): Promise<ChatArtifact[]>;
  listMessages(filter: ChatFilter): Promise<ChatMessage[]>;
}

/** What `chat.*` wrote during the session, every tenant's (the single-app `dispatcher.chat`). */
export interface ChatLog {
  artifacts: ChatArtifact[];
  messages: ChatMessage[];
}

/**
 * The messaging server's JSON (Mattermost, REST API v4) as this service reads it: the fields we
 * use, in the server's spelling. Ids are 26 lower-case characters; times are Unix milliseconds,
 * `delete_at` 0 while the record is live.
 */

export interface ChatUser {
  id: string;
  username: string;
  /** Lower-cased by the server. */
  email: string;
  first_name: string;
  last_name: string;
  create_at: number;
  delete_at: number;
  roles: string;
}

/** `O` open (any user of the server may join), `I` invite only. */
export type ChatTeamType = 'O' | 'I';

export interface ChatTeam {
  id: string;
  name: string;
  display_name: string;
  type: ChatTeamType;
  delete_at: number;
}

/** `O` public, `P` private (direct and group messages, `D` and `G`, we never make). */
export type ChatChannelType = 'O' | 'P';

export interface ChatChannel {
  id: string;
  team_id: string;
  name: string;
  display_name: string;
  type: ChatChannelType;
  delete_at: number;
}

export interface ChatChannelMember {
  channel_id: string;
  user_id: string;
  roles: string;
}

export interface ChatTeamMember {
  team_id: string;
  user_id: string;
  roles: string;
  /** Not 0: the user left or was removed (the server keeps the row). */
  delete_at: number;
}

/** A personal access token; `token` is answered only when it is created. */
export interface ChatToken {
  id: string;
  token: string;
  user_id: string;
  description: string;
  is_active: boolean;
}

export interface ChatPost {
  id: string;
  channel_id: string;
  user_id: string;
  message: string;
  create_at: number;
}

/** The server's error body (`model.AppError`). */
export interface ChatErrorBody {
  id: string;
  message: string;
  detailed_error?: string;
  request_id?: string;
  status_code: number;
}

export interface NewChatUser {
  email: string;
  username: string;
  password: string;
  first_name?: string;
  last_name?: string;
}

export interface NewChatTeam {
  name: string;
  display_name: string;
  type: ChatTeamType;
}

export interface NewChatChannel {
  team_id: string;
  name: string;
  display_name: string;
  type: ChatChannelType;
}

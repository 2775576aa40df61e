import { useState } from "react";
import { Link, useLocation } from "wouter";
import { api } from "../api/client";
import { queryClient } from "../api/query-client";
import { applyTheme, storedTheme, themeIsForced, type ThemeChoice } from "../lib/theme";
import { Menu, MenuItem, MenuLabel, MenuSeparator } from "../ui/Menu";
import { BookOpen, Check, LogOut, Monitor, Moon, Sun } from "../ui/icons";
import { useMe } from "./session";
import { Settings2, UserRound } from "../features/account/icons";
import { seesAdmin } from "../features/admin";
import { avatarColor } from "../ui/Avatar";

const THEMES: Array<[ThemeChoice, string, typeof Sun]> = [
  ["system", "System theme", Monitor],
  ["light", "Light theme", Sun],
  ["dark", "Dark theme", Moon],
];

/** The account menu (theme, sign out), or "Sign in" for a visitor of a public space. */
export function AccountMenu() {
  const me = useMe();
  const [, navigate] = useLocation();
  const [theme, setTheme] = useState(storedTheme());
  if (!me.data) {
    const here = window.location.pathname + window.location.search;
    return (
      <Link className="btn btn-primary btn-sm" href={`/login?redirect=${encodeURIComponent(here)}`}>
        Sign in
      </Link>
    );
  }
  const initials = me.data.displayName
    .split(/\s+/)
    .map((w) => w[0])
    .join("")
    .slice(0, 2)
    .toUpperCase();
  const signOut = async () => {
    await api.POST("/api/auth/logout").catch(() => {});
    queryClient.clear();
    navigate("/login", { replace: true });
  };
  return (
    <Menu
      label="Account"
      trigger={
        <button type="button" className="avatar-button" title={`Account: ${me.data.displayName}`}>
          <span
            className="avatar"
            aria-hidden="true"
            style={
              me.data.avatarUrl ? { overflow: "hidden" } : { background: avatarColor(me.data.id, me.data.avatarVariant), color: "#fff" }
            }
          >
            {me.data.avatarUrl ? (
              <img src={me.data.avatarUrl} alt="" width={32} height={32} style={{ width: "100%", height: "100%", objectFit: "cover" }} />
            ) : (
              initials || "?"
            )}
          </span>
          <span className="visually-hidden">Account: {me.data.displayName}</span>
        </button>
      }
    >
      <MenuLabel>
        {me.data.displayName}
        <br />
        {me.data.email}
      </MenuLabel>
      <MenuSeparator />
      <MenuItem icon={<UserRound />} onSelect={() => navigate("/settings/profile")}>
        Your account
      </MenuItem>
      {seesAdmin(me.data.permissions) ? (
        <MenuItem icon={<Settings2 />} onSelect={() => navigate("/admin")}>
          Administration
        </MenuItem>
      ) : null}
      {/* No switch while branding fixes the theme for everyone. */}
      {themeIsForced() ? null : <MenuSeparator />}
      {(themeIsForced() ? [] : THEMES).map(([choice, label, Icon]) => (
        <MenuItem
          key={choice}
          icon={theme === choice ? <Check /> : <Icon />}
          onSelect={() => {
            applyTheme(choice);
            setTheme(choice);
          }}
        >
          {label}
        </MenuItem>
      ))}
      <MenuSeparator />
      <MenuItem icon={<BookOpen />} onSelect={() => window.location.assign("/api/docs")}>
        API reference
      </MenuItem>
      <MenuItem icon={<LogOut />} onSelect={signOut}>
        Sign out
      </MenuItem>
    </Menu>
  );
}

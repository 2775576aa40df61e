// Every icon the UI draws, from lucide (tree-shaken: only these are bundled).
export {
  ArrowLeft, BookOpen, Check, ChevronDown, ChevronRight, Clock, Copy, CornerDownLeft, Ellipsis, FilePlus, FileText,
  FolderInput, History, LogOut, Menu as MenuIcon, Monitor, Moon, Pencil, Plus, RotateCcw, Search, Settings, Smile, Sun,
  Trash2, X, Lock, Globe, LayoutTemplate, Maximize2, Minimize2, Tag, CircleAlert, Info, Lightbulb, CircleCheck, TriangleAlert,
  MessageSquare, Paperclip, Download, Upload,
} from "lucide-react";

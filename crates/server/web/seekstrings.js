// The texts of finding an opponent (the lobby's seeks and challenges, the board's rematch),
// English and Chinese; i18n.js merges them into its tables.

export const SEEK_STRINGS = {
  en: {
    casual: "Casual",
    anonymous: "Anonymous",
    waiting: "Your seek: {what}. Waiting for an opponent — keep this page open.",
    cancelSeek: "Cancel",
    cancelSeekLabel: "Cancel your seek: {what}",
    play: "Play",
    playLabel: "Play {name}: {what}",
    acceptRematch: "Accept rematch",
    rematchOffered: "Rematch offered",
    theyOfferRematch: "Your opponent offers a rematch.",
    youOfferedRematch: "You offered a rematch; waiting for your opponent.",
  },
  zh: {
    casual: "友谊",
    anonymous: "匿名",
    waiting: "你的约战：{what}。正在等待对手——请保持此页面打开。",
    cancelSeek: "取消",
    cancelSeekLabel: "取消你的约战：{what}",
    play: "应战",
    playLabel: "应战 {name}：{what}",
    acceptRematch: "接受再战",
    rematchOffered: "已提出再战",
    theyOfferRematch: "对手提议再来一局。",
    youOfferedRematch: "你已提议再来一局，等待对手回应。",
  },
};

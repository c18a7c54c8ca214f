export { parseStockFile, stockCodeSchema, StockFileError, type RejectedStockRow, type StockCode, type StockFileRow } from "./stock-file";
export { importStock, releaseCodes, reserveCode, sellCode, stockLevels, type StockImportReport, type StockLevel } from "./stock";
